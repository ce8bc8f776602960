// Hostile input: every file that is not a usable trace gets a TraceError with one clear sentence;
// the real nsys fixtures load completely and consistently.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/db/sqlite_database.h"
#include "core/details/kernel_list.h"
#include "core/error.h"
#include "core/model/global_id.h"
#include "core/model/trace_file.h"
#include "core/model/trace_loader.h"
#include "core/model/trace_summary.h"
#include "core/model/trace_values.h"
#include "core/open/open_trace.h"
#include "core/query/utilization.h"
#include "core/schema/trace_schema.h"
#include "core/write/trace_writer.h"

namespace gpuscope {
namespace {

namespace fs = std::filesystem;

const std::string kFixtures = std::string(GPUSCOPE_FIXTURES) + "/nsys/";
const std::string kTranspose = kFixtures + "transpose.sqlite";
const std::string kLoader2 = kFixtures + "loader2.sqlite";

// A path in the temp folder, removed (file or folder) when the test ends.
struct TempPath {
  explicit TempPath(const std::string& name)
      : path((fs::temp_directory_path() / ("gpuscope_hostile_" + std::to_string(::getpid()) + "_" + name)).string()) {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  ~TempPath() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string path;
};

std::string readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// Loads PATH expecting a TraceError; returns its message ("" after recording a failure).
std::string loadError(const std::string& path) {
  try {
    loadTrace(path);
  } catch (const TraceError& error) {
    return error.what();
  } catch (const std::exception& error) {
    ADD_FAILURE() << "expected a TraceError, got another exception: " << error.what();
    return {};
  }
  ADD_FAILURE() << "expected a TraceError, but " << path << " loaded";
  return {};
}

// One clear sentence that mentions at least one of WORDS (case-insensitive).
::testing::AssertionResult isOneSentenceAbout(const std::string& message, std::vector<std::string> words) {
  if (message.empty()) return ::testing::AssertionFailure() << "empty message";
  if (message.find('\n') != std::string::npos) return ::testing::AssertionFailure() << "several lines: " << message;
  if (message.size() > 400) return ::testing::AssertionFailure() << "too long: " << message;
  if (message.back() != '.') return ::testing::AssertionFailure() << "does not end a sentence: " << message;
  for (const auto& word : words) {
    if (lower(message).find(lower(word)) != std::string::npos) return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "does not say what is wrong: " << message;
}

// Runs checkTraceValues, the SQL reports' check, on PATH expecting a TraceError; returns its message.
std::string reportCheckError(const std::string& path) {
  try {
    openCheckedTraceFile(path);
  } catch (const TraceError& error) {
    return error.what();
  }
  ADD_FAILURE() << "expected a TraceError, but stats/roofline would run on " << path;
  return {};
}

// The one policy for hostile files: the loader (info, diff, the viewer) and the SQL reports (stats,
// roofline) refuse PATH with the same single sentence, which mentions one of WORDS.
void expectRefusedEverywhere(const std::string& path, std::vector<std::string> words) {
  std::string loader = loadError(path);
  EXPECT_TRUE(isOneSentenceAbout(loader, std::move(words)));
  EXPECT_EQ(reportCheckError(path), loader) << "stats/roofline and info must refuse this file alike";
}

// A minimal valid trace written by TraceWriter: one thread launching one kernel.
void writeTinyTrace(const std::string& path) {
  const int64_t globalPid = global_id::make(0, 1, 7, 0);
  const int64_t globalTid = global_id::make(0, 1, 7, 7);
  TraceWriter w(path);
  w.addProcess({globalPid, 7, "tiny"});
  w.addCudaApi({100, 200, CudaApiKind::Runtime, globalTid, 1, "cudaLaunchKernel_v7000", 0, std::nullopt});
  KernelRow kernel;
  kernel.start = 300;
  kernel.end = 400;
  kernel.streamId = 7;
  kernel.correlationId = 1;
  kernel.globalPid = globalPid;
  kernel.demangledName = "tiny(int)";
  kernel.shortName = "tiny";
  w.addKernel(kernel);
  w.addOsRuntime({150, 160, globalTid, "ioctl", 0, 0, std::nullopt});
  NvtxRow range;
  range.start = 50;
  range.end = 500;
  range.globalTid = globalTid;
  range.text = "step";
  w.addNvtxPushPopRange(range);
  w.finish();
}

// Runs SQL on PATH opened read-write: the hostile edits a test makes to a valid file.
void edit(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK) << path;
  char* error = nullptr;
  int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
  EXPECT_EQ(rc, SQLITE_OK) << (error ? error : "") << " in " << sql;
  sqlite3_free(error);
  sqlite3_close(db);
}

// SQL that rebuilds TABLE without its NOT NULL constraints (CREATE TABLE AS keeps names and rows only).
std::string dropConstraints(const std::string& table) {
  return "CREATE TABLE loose AS SELECT * FROM " + table + "; DROP TABLE " + table + "; ALTER TABLE loose RENAME TO " +
         table + ";";
}

TEST(HostileInput, MissingPath) {
  std::string message = loadError("/nonexistent/gpuscope/trace.sqlite");
  EXPECT_TRUE(isOneSentenceAbout(message, {"does not exist", "no such file", "not found"}));
}

TEST(HostileInput, Directory) {
  TempPath dir("dir");
  fs::create_directory(dir.path);
  EXPECT_TRUE(isOneSentenceAbout(loadError(dir.path), {"directory"}));
}

TEST(HostileInput, EmptyFile) {
  TempPath file("empty.sqlite");
  writeBytes(file.path, "");
  EXPECT_TRUE(isOneSentenceAbout(loadError(file.path), {"empty"}));
}

TEST(HostileInput, RandomBytes) {
  TempPath file("random.sqlite");
  std::mt19937 random(12345);
  std::string bytes(64 * 1024, '\0');
  for (char& byte : bytes) byte = static_cast<char>(random() & 0xFF);
  writeBytes(file.path, bytes);
  EXPECT_TRUE(isOneSentenceAbout(loadError(file.path), {"not a", "not an"}));
}

TEST(HostileInput, TruncatedTo64KiB) {
  TempPath file("truncated64k.sqlite");
  writeBytes(file.path, readBytes(kTranspose).substr(0, 64 * 1024));
  EXPECT_TRUE(isOneSentenceAbout(loadError(file.path), {"truncated", "damaged", "malformed", "corrupt"}));
}

TEST(HostileInput, TruncatedToHalf) {
  TempPath file("truncated_half.sqlite");
  std::string bytes = readBytes(kTranspose);
  writeBytes(file.path, bytes.substr(0, bytes.size() / 2));
  EXPECT_TRUE(isOneSentenceAbout(loadError(file.path), {"truncated", "damaged", "malformed", "corrupt"}));
}

TEST(HostileInput, TruncatedAnywhere) {
  // Cuts that leave the schema readable fail later, inside the table scans.
  TempPath file("truncated_n.sqlite");
  std::string bytes = readBytes(kLoader2);
  // (Its last pages hold META_DATA_*, which the loader does not read: a cut there may load.)
  for (size_t size : {size_t{4096}, bytes.size() / 4, bytes.size() / 2, bytes.size() * 3 / 4, bytes.size() * 7 / 8}) {
    writeBytes(file.path, bytes.substr(0, size));
    EXPECT_TRUE(isOneSentenceAbout(loadError(file.path), {"truncated", "damaged", "malformed", "corrupt"}))
        << "cut at " << size << " of " << bytes.size() << " bytes";
  }
}

TEST(HostileInput, SqliteFileThatIsNotATrace) {
  TempPath file("unrelated.sqlite");
  {
    Database db = Database::create(file.path);
    db.exec("CREATE TABLE recipes (name TEXT, minutes INTEGER); INSERT INTO recipes VALUES ('soup', 40)");
  }
  EXPECT_TRUE(isOneSentenceAbout(loadError(file.path), {"not a trace", "not a gpuscope", "not an nsys", "no StringIds",
                                                        "no event table", "no trace"}));
}

TEST(HostileInput, FixtureWithoutARequiredColumn) {
  TempPath file("no_shortname.sqlite");
  fs::copy_file(kTranspose, file.path);
  fs::permissions(file.path, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::add);
  edit(file.path, "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN shortName");
  std::string message = loadError(file.path);
  EXPECT_TRUE(isOneSentenceAbout(message, {"shortName"}));
  EXPECT_TRUE(isOneSentenceAbout(message, {"CUPTI_ACTIVITY_KIND_KERNEL"}));
}

TEST(HostileInput, WrittenTraceWithoutARequiredColumn) {
  TempPath file("no_correlation.sqlite");
  writeTinyTrace(file.path);
  edit(file.path,
       "DROP INDEX idx_CUPTI_ACTIVITY_KIND_RUNTIME_correlationId; "
       "ALTER TABLE CUPTI_ACTIVITY_KIND_RUNTIME DROP COLUMN correlationId");
  std::string message = loadError(file.path);
  EXPECT_TRUE(isOneSentenceAbout(message, {"correlationId"}));
  EXPECT_TRUE(isOneSentenceAbout(message, {"CUPTI_ACTIVITY_KIND_RUNTIME"}));
}

TEST(HostileInput, EndBeforeStart) {
  TempPath file("end_before_start.sqlite");
  writeTinyTrace(file.path);
  edit(file.path, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 50");
  std::string message = loadError(file.path);
  EXPECT_TRUE(isOneSentenceAbout(message, {"end"}));
  EXPECT_TRUE(isOneSentenceAbout(message, {"CUPTI_ACTIVITY_KIND_KERNEL", "kernel"}));
  expectRefusedEverywhere(file.path, {"ends before it starts"});
}

TEST(HostileInput, NullWhereAValueIsRequired) {
  TempPath file("null_shortname.sqlite");
  writeTinyTrace(file.path);
  edit(file.path,
       dropConstraints("CUPTI_ACTIVITY_KIND_KERNEL") + "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET shortName = NULL");
  std::string message = loadError(file.path);
  EXPECT_TRUE(isOneSentenceAbout(message, {"shortName", "name"}));
  EXPECT_TRUE(isOneSentenceAbout(message, {"CUPTI_ACTIVITY_KIND_KERNEL", "kernel"}));
  expectRefusedEverywhere(file.path, {"shortName"});
}

TEST(HostileInput, NullStart) {
  TempPath file("null_start.sqlite");
  writeTinyTrace(file.path);
  edit(file.path, dropConstraints("OSRT_API") + "UPDATE OSRT_API SET start = NULL");
  EXPECT_TRUE(isOneSentenceAbout(loadError(file.path), {"start"}));
  expectRefusedEverywhere(file.path, {"OSRT_API row 1 has no start time"});
}

TEST(HostileInput, StringIdThatPointsNowhere) {
  TempPath file("dangling_string.sqlite");
  writeTinyTrace(file.path);
  edit(file.path, "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET nameId = 999999");
  std::string message = loadError(file.path);
  EXPECT_TRUE(isOneSentenceAbout(message, {"string", "999999"}));
  expectRefusedEverywhere(file.path, {"999999"});
}

TEST(HostileInput, NegativeStringId) {
  TempPath file("negative_string.sqlite");
  writeTinyTrace(file.path);
  edit(file.path, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET shortName = -5");
  EXPECT_TRUE(isOneSentenceAbout(loadError(file.path), {"string", "-5"}));
  expectRefusedEverywhere(file.path, {"-5"});
}

// Values of the wrong type: SQLite reads text and blobs as 0, which would put the kernel at t = 0.
class WrongType : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(WrongType, IsRefusedEverywhere) {
  const auto& [assignment, type] = GetParam();
  TempPath file("wrong_type.sqlite");
  writeTinyTrace(file.path);
  edit(file.path, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET " + assignment);
  std::string message = loadError(file.path);
  EXPECT_TRUE(isOneSentenceAbout(message, {"CUPTI_ACTIVITY_KIND_KERNEL row 1"}));
  EXPECT_TRUE(isOneSentenceAbout(message, {"not an integer (a " + type + " value)"}));
  EXPECT_EQ(reportCheckError(file.path), message);
}

INSTANTIATE_TEST_SUITE_P(HostileInput, WrongType,
                         ::testing::Values(std::pair{"start = 'soon'", "text"}, std::pair{"start = x'0102'", "blob"},
                                           std::pair{"end = 450.5", "real"}, std::pair{"shortName = 'tiny'", "text"},
                                           std::pair{"streamId = 'seven'", "text"}));

TEST(HostileInput, RowidsAtTheInt64Limit) {
  // The loader sums the tables' largest rowids for its progress bar: that sum overflowed.
  TempPath file("max_rowid.sqlite");
  writeTinyTrace(file.path);
  edit(file.path,
       "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET rowid = 9223372036854775807; "
       "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET rowid = 9223372036854775807;");
  expectRefusedEverywhere(file.path, {"rowid"});
}

TEST(HostileInput, ExtremeTimesDoNotWrap) {
  // Times at both ends of int64 are valid values; spans and sums saturate instead of wrapping negative.
  TempPath file("extreme_times.sqlite");
  writeTinyTrace(file.path);
  edit(file.path,
       "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = -9223372036854775807, end = 9223372036854775806; "
       "UPDATE OSRT_API SET start = 9223372036854775806, end = 9223372036854775807;");
  auto trace = loadTrace(file.path);
  std::string summary = formatSummaryText(*trace);
  EXPECT_EQ(summary.find("Time span: -"), std::string::npos) << summary;
  auto groups = summarizeKernels(*trace, kernelInstances(*trace));
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_GT(groups[0].total, 0);
  EXPECT_GT(groups[0].max, 0);
  for (const auto& device : trace->devices()) EXPECT_GT(DeviceUtilization::forDevice(*trace, device.id).totalBusy(), 0);
  EXPECT_NO_THROW(openCheckedTraceFile(file.path));
}

TEST(HostileInput, FifoIsRefusedWithoutBlocking) {
  TempPath fifo("fifo.sqlite");
  ASSERT_EQ(::mkfifo(fifo.path.c_str(), 0600), 0);
  // Before the check, SQLite's first read blocked for ever; a writer that comes by after 3 s turns
  // that hang into a failure instead of a stuck test.
  std::atomic<bool> done{false};
  std::thread unblock([&] {
    for (int i = 0; i < 30 && !done; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (done) return;
    int fd = ::open(fifo.path.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
  });
  auto started = std::chrono::steady_clock::now();
  std::string message = loadError(fifo.path);
  done = true;
  unblock.join();
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2));
  EXPECT_TRUE(isOneSentenceAbout(message, {"not a regular file"}));
}

// Turns PATH into a WAL-mode database (no -wal left once the connection closes).
void makeWal(const std::string& path) { edit(path, "PRAGMA journal_mode=WAL"); }

TEST(HostileInput, WalInputLoadsWithoutWritingBesideIt) {
  TempPath dir("wal_dir");
  fs::create_directory(dir.path);
  const std::string path = dir.path + "/trace.sqlite";
  writeTinyTrace(path);
  makeWal(path);
  ASSERT_FALSE(fs::exists(path + "-wal"));
  auto trace = loadTrace(path);
  EXPECT_EQ(trace->counts().kernels, 1u);
  EXPECT_NO_THROW(openCheckedTraceFile(path));
  EXPECT_FALSE(fs::exists(path + "-wal"));
  EXPECT_FALSE(fs::exists(path + "-shm"));
}

TEST(HostileInput, WalWithUnsavedPagesIsRefused) {
  // Opened without writing, SQLite would ignore the -wal file's pages: refuse instead of showing less.
  TempPath dir("wal_pending");
  fs::create_directory(dir.path);
  const std::string path = dir.path + "/trace.sqlite";
  writeTinyTrace(path);
  makeWal(path);
  writeBytes(path + "-wal", std::string(4096, 'x'));
  EXPECT_TRUE(isOneSentenceAbout(loadError(path), {"-wal"}));
}

TEST(HostileInput, DamageInATableTheLoaderSkipsIsFound) {
  // The loader reads only the event tables; a damaged page elsewhere went unnoticed.
  TempPath file("damaged_meta.sqlite");
  fs::copy_file(kTranspose, file.path);
  fs::permissions(file.path, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::add);
  int64_t root = 0;
  {
    Database db = Database::openReadOnly(file.path);
    Statement stmt = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'META_DATA_EXPORT'");
    ASSERT_TRUE(stmt.step());
    root = stmt.int64(0);
  }
  std::string bytes = readBytes(file.path);
  size_t pageSize = (static_cast<unsigned char>(bytes[16]) << 8) | static_cast<unsigned char>(bytes[17]);
  bytes[static_cast<size_t>(root - 1) * pageSize] = 0x7F;  // no such b-tree page type
  writeBytes(file.path, bytes);
  expectRefusedEverywhere(file.path, {"damaged"});

  // The viewer loads without the check and runs integrityProblem afterwards: the same sentence.
  LoadOptions deferred;
  deferred.checkIntegrity = false;
  EXPECT_NO_THROW(loadTrace(file.path, deferred));
  EXPECT_EQ(integrityProblem(file.path), loadError(file.path));
  std::atomic<bool> cancelled{true};
  EXPECT_EQ(integrityProblem(file.path, &cancelled), "") << "a cancelled check reports nothing";
  EXPECT_EQ(integrityProblem(kTranspose), "");
}

TEST(HostileInput, IntegrityCheckOfAPyTorchTraceChecksTheFileItWasImportedInto) {
  // The viewer checks the path it opened through the door; a JSON trace is not itself SQLite, and must not
  // read as damaged.
  const std::string kineto = std::string(GPUSCOPE_FIXTURES) + "/kineto/loader2_kineto.json.gz";
  LoadOptions deferred;
  deferred.checkIntegrity = false;
  ASSERT_NO_THROW(openTrace(kineto).load(deferred));
  EXPECT_EQ(traceIntegrityProblem(kineto), "");
}

TEST(HostileInput, ErrorsShowNoControlBytes) {
  std::string message = loadError("/nonexistent/\x1b[2Jtrace\n\x07.sqlite");
  EXPECT_TRUE(std::none_of(message.begin(), message.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; }))
      << message;
}

TEST(HostileInput, TinyTraceLoads) {
  // The unedited file the hostile edits start from is itself a valid trace.
  TempPath file("tiny.sqlite");
  writeTinyTrace(file.path);
  auto trace = loadTrace(file.path);
  EXPECT_EQ(trace->counts().kernels, 1u);
  EXPECT_EQ(trace->counts().cudaApi, 1u);
}

// ---- The real exports load completely and consistently.

int64_t countRows(const Database& db, std::string_view table) {
  if (!db.hasTable(table)) return 0;
  Statement stmt = db.prepare("SELECT count(*) FROM " + std::string(table));
  stmt.step();
  return stmt.int64(0);
}

class FixtureLoad : public ::testing::TestWithParam<std::string> {};

TEST_P(FixtureLoad, CountsMatchTheTables) {
  const std::string path = kFixtures + GetParam();
  auto trace = loadTrace(path);
  Database db = Database::openReadOnly(path);
  const EventCounts& counts = trace->counts();
  EXPECT_EQ(static_cast<int64_t>(counts.kernels), countRows(db, table::kKernel));
  EXPECT_EQ(static_cast<int64_t>(counts.memcpys), countRows(db, table::kMemcpy));
  EXPECT_EQ(static_cast<int64_t>(counts.memsets), countRows(db, table::kMemset));
  EXPECT_EQ(static_cast<int64_t>(counts.cudaApi), countRows(db, table::kRuntime));
  EXPECT_EQ(static_cast<int64_t>(counts.nvtx), countRows(db, table::kNvtx));
  EXPECT_EQ(static_cast<int64_t>(counts.osrt), countRows(db, table::kOsrt));
  size_t inTracks = 0;
  for (const Track& track : trace->tracks()) inTracks += track.eventCount();
  EXPECT_EQ(inTracks, counts.total());
}

TEST_P(FixtureLoad, LanesAreSortedAndDoNotOverlap) {
  auto trace = loadTrace(kFixtures + GetParam());
  for (const Track& track : trace->tracks()) {
    for (size_t depth = 0; depth < track.lanes.size(); ++depth) {
      const Lane& lane = track.lanes[depth];
      ASSERT_EQ(lane.length.size(), lane.size());
      ASSERT_EQ(lane.name.size(), lane.size());
      for (size_t i = 0; i < lane.size(); ++i) {
        ASSERT_LE(lane.start[i], lane.end(i)) << track.label << " lane " << depth << " event " << i;
        ASSERT_GE(lane.start[i], track.first) << track.label;
        ASSERT_LE(lane.end(i), track.last) << track.label;
        if (i == 0) continue;
        ASSERT_LE(lane.start[i - 1], lane.start[i]) << track.label << " lane " << depth << " event " << i;
        ASSERT_LE(lane.end(i - 1), lane.end(i)) << track.label << " lane " << depth << " event " << i;
        ASSERT_LE(lane.end(i - 1), lane.start[i]) << track.label << " lane " << depth << " overlaps at " << i;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(NsysExports, FixtureLoad, ::testing::Values("transpose.sqlite", "loader2.sqlite"),
                         [](const auto& param) { return param.param.substr(0, param.param.find('.')); });

TEST(FixtureTranspose, NvtxRangesDoNotNest) {
  auto trace = loadTrace(kTranspose);
  size_t nvtxTracks = 0;
  for (const Track& track : trace->tracks()) {
    if (track.kind != TrackKind::Nvtx) continue;
    ++nvtxTracks;
    EXPECT_EQ(track.lanes.size(), 1u) << track.label << ": transpose's ranges follow each other, depth 0 only";
  }
  EXPECT_EQ(nvtxTracks, 1u);
}

TEST(FixtureTranspose, EveryKernelHasItsLaunch) {
  auto trace = loadTrace(kTranspose);
  size_t kernels = 0;
  for (uint32_t t = 0; t < trace->tracks().size(); ++t) {
    const Track& track = trace->track(t);
    if (track.kind != TrackKind::GpuKernels) continue;
    for (uint32_t l = 0; l < track.lanes.size(); ++l) {
      for (uint32_t i = 0; i < track.lanes[l].size(); ++i) {
        EventRef kernel{t, l, i};
        ++kernels;
        auto launch = trace->launchingCall(kernel);
        ASSERT_TRUE(launch.has_value()) << trace->name(kernel) << " at " << trace->start(kernel);
        // nsys names the call cudaLaunchKernel_v7000; a reader may drop the version suffix.
        const std::string& name = trace->name(*launch);
        EXPECT_TRUE(name == "cudaLaunchKernel" || name == "cudaLaunchKernel_v7000") << name;
        EXPECT_LE(trace->start(*launch), trace->start(kernel));
        auto launched = trace->launchedWork(*launch);
        EXPECT_NE(std::find(launched.begin(), launched.end(), kernel), launched.end());
      }
    }
  }
  EXPECT_EQ(kernels, 30u);
}

}  // namespace
}  // namespace gpuscope
