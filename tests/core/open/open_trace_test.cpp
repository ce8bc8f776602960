// The door: a file's format is told from its content (never its name or a leading brace), every format
// opens through one registry, and a file of no known format is refused with one sentence.
#include "core/open/open_trace.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>

#include "core/error.h"
#include "core/open/json_head.h"
#include "core/open/trace_formats.h"

namespace gpuscope {
namespace {

const std::string kSqlite = std::string(GPUSCOPE_FIXTURES) + "/nsys/transpose.sqlite";
const std::string kKinetoGz = std::string(GPUSCOPE_FIXTURES) + "/kineto/loader2_kineto.json.gz";

std::string tempPath(const std::string& name) {
  std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  return (std::filesystem::path(::testing::TempDir()) / ("open_" + test + "_" + name)).string();
}

std::string tempFile(const std::string& name, const std::string& content) {
  auto path = tempPath(name);
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

std::string gunzipped(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  std::string text;
  char buffer[1 << 16];
  for (int n; (n = gzread(file, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<size_t>(n));
  gzclose(file);
  return text;
}

std::string gzipFile(const std::string& name, const std::string& content) {
  auto path = tempPath(name);
  gzFile file = gzopen(path.c_str(), "wb");
  gzwrite(file, content.data(), static_cast<unsigned>(content.size()));
  gzclose(file);
  return path;
}

std::string formatOf(const std::string& path) {
  const TraceFormat* format = sniffTraceFormat(readFileHead(path));
  return format ? std::string(format->name) : "none";
}

std::string refusal(const std::string& path) {
  try {
    openTrace(path);
  } catch (const TraceError& error) {
    return error.what();
  }
  return "opened";
}

constexpr char kNotAnyFormat[] =
    "an SQLite trace (a gpuscope recording or an nsys export) or a PyTorch profiler trace (Chrome trace JSON "
    "with a top-level traceEvents key, plain or gzip).";

TEST(OpenTrace, TellsEachFormatByItsContentWhateverItsName) {
  EXPECT_EQ(formatOf(kSqlite), "SQLite trace");
  EXPECT_EQ(formatOf(kKinetoGz), "PyTorch profiler trace");
  EXPECT_EQ(formatOf(tempFile("plain.sqlite", gunzipped(kKinetoGz))), "PyTorch profiler trace");
  std::filesystem::copy_file(kSqlite, tempPath("recording.json"), std::filesystem::copy_options::overwrite_existing);
  EXPECT_EQ(formatOf(tempPath("recording.json")), "SQLite trace");
}

TEST(OpenTrace, AnSqliteTraceIsReadInPlaceAndAPyTorchTraceThroughOneImport) {
  OpenedTrace sqlite = openTrace(kSqlite);
  EXPECT_EQ(sqlite.databasePath, kSqlite);
  EXPECT_EQ(sqlite.format->import, nullptr);
  OpenedTrace kineto = openTrace(kKinetoGz);
  EXPECT_NE(kineto.databasePath, kKinetoGz);
  EXPECT_EQ(formatOf(kineto.databasePath), "SQLite trace");
  EXPECT_EQ(openTrace(kKinetoGz).databasePath, kineto.databasePath) << "imported once per process";
  auto trace = kineto.load();
  EXPECT_EQ(trace->path(), kKinetoGz) << "the trace keeps the name the user gave";
  EXPECT_EQ(trace->database().path(), kineto.databasePath);
  EXPECT_GT(trace->counts().kernels, 0u);
  EXPECT_TRUE(kineto.connectChecked().hasTable("CUPTI_ACTIVITY_KIND_KERNEL"));
}

TEST(OpenTrace, AFileWrittenAgainSinceItsImportIsImportedAgain) {
  const std::string path = tempPath("rewritten.json");
  std::filesystem::copy_file(kKinetoGz, path, std::filesystem::copy_options::overwrite_existing);
  OpenedTrace first = openTrace(path);
  EXPECT_GT(first.load()->counts().kernels, 1u);
  tempFile("rewritten.json", R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7,
    "ts": 10, "dur": 2, "args": {"device": 0, "stream": 7}}]})");
  OpenedTrace second = openTrace(path);
  EXPECT_NE(second.databasePath, first.databasePath);
  EXPECT_EQ(second.load()->counts().kernels, 1u);
}

TEST(OpenTrace, JsonWithoutATopLevelTraceEventsKeyIsRefusedInOneSentence) {
  auto foo = tempFile("foo.json", R"({"foo":1})");
  EXPECT_EQ(refusal(foo), foo + " is not a trace gpuscope can open: it is JSON, but not " + kNotAnyFormat);
  auto nested = tempFile("nested.json", R"({"otherData": {"traceEvents": []}, "name": "traceEvents"})");
  EXPECT_EQ(refusal(nested), nested + " is not a trace gpuscope can open: it is JSON, but not " + kNotAnyFormat);
  auto gz = gzipFile("foo.json.gz", R"({"foo":1})");
  EXPECT_EQ(refusal(gz),
            gz + " is not a trace gpuscope can open: it is gzip-compressed JSON, but not " + kNotAnyFormat);
}

TEST(OpenTrace, EmptyMissingAndRandomFilesAreRefusedInOneSentence) {
  auto empty = tempFile("empty.json", "");
  EXPECT_EQ(refusal(empty), empty + " is empty, not a trace file.");
  EXPECT_EQ(refusal(tempPath("missing.sqlite")), tempPath("missing.sqlite") + " does not exist.");
  EXPECT_EQ(refusal(::testing::TempDir()), ::testing::TempDir() + " is a directory, not a trace file.");
  std::mt19937 random(27);
  std::string bytes(4096, '\0');
  for (char& byte : bytes) byte = static_cast<char>(random() & 0xFF);
  bytes[0] = 'x';  // neither gzip's magic nor SQLite's
  auto noise = tempFile("noise.sqlite", bytes);
  EXPECT_EQ(refusal(noise), noise + " is not a trace gpuscope can open: it is not " + kNotAnyFormat);
  auto gzNoise = gzipFile("noise.gz", bytes);
  EXPECT_EQ(refusal(gzNoise),
            gzNoise + " is not a trace gpuscope can open: it is gzip-compressed, but not " + kNotAnyFormat);
}

TEST(OpenTrace, TheIntegrityCheckGoesThroughTheDoorToo) {
  EXPECT_EQ(traceIntegrityProblem(kKinetoGz), "");
  EXPECT_EQ(traceIntegrityProblem(kSqlite), "");
  auto foo = tempFile("foo.json", R"({"foo":1})");
  EXPECT_EQ(traceIntegrityProblem(foo), refusal(foo));
}

TEST(TraceFormats, EachEntryIsNamedOnceAndClaimsOnlyItsOwnFiles) {
  std::set<std::string_view> names;
  for (const TraceFormat& format : traceFormats()) {
    EXPECT_TRUE(names.insert(format.name).second) << format.name;
    EXPECT_NE(format.sniff, nullptr) << format.name;
    EXPECT_FALSE(format.whatItIs.empty()) << format.name;
  }
  FileHead sqlite = readFileHead(kSqlite), kineto = readFileHead(kKinetoGz);
  EXPECT_TRUE(looksLikeSqliteTrace(sqlite));
  EXPECT_FALSE(looksLikeSqliteTrace(kineto));
  EXPECT_TRUE(looksLikeChromeTrace(kineto));
  EXPECT_FALSE(looksLikeChromeTrace(sqlite));
  EXPECT_TRUE(kineto.gzip);
  EXPECT_NE(kineto.text, kineto.stored) << "the sniffs see the decompressed text";
}

TEST(JsonHead, ListsTopLevelKeysOnlyAsFarAsTheHeadGoes) {
  EXPECT_EQ(topLevelJsonKeys(R"({"a": {"b": 1, "c": [{"d": 2}]}, "e": "f,\"g\":", "h": [1, 2],)"),
            (std::vector<std::string>{"a", "e", "h"}));
  EXPECT_EQ(topLevelJsonKeys("\xEF\xBB\xBF \n{\"traceEvents\": [{\"ph\": \"X\""),
            std::vector<std::string>{"traceEvents"});
  EXPECT_EQ(topLevelJsonKeys(R"({"a": 1} {"b": 2})"), std::vector<std::string>{"a"});
  EXPECT_TRUE(topLevelJsonKeys(R"([{"traceEvents": []}])").empty());
  EXPECT_TRUE(topLevelJsonKeys("SQLite format 3").empty());
  EXPECT_TRUE(startsLikeJson(" [1]"));
  EXPECT_FALSE(startsLikeJson("x{}"));
}

}  // namespace
}  // namespace gpuscope
