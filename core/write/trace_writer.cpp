#include "core/write/trace_writer.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.h"
#include "core/schema/nsys_enums.h"
#include "core/schema/trace_schema.h"
#include "core/write/writer_state.h"
#include "core/write/writer_statements.h"

namespace gpuscope {
namespace {

// The nsys export schema version whose tables and columns we write.
constexpr std::string_view kNsysSchemaVersion = "3.20.3";

template <typename T>
void appendValue(CellRows& table, const T& value) {
  if constexpr (std::is_same_v<T, std::nullptr_t>) {
    table.addNull();
  } else if constexpr (std::is_integral_v<T>) {
    table.addInt(static_cast<int64_t>(value));
  } else if constexpr (std::is_floating_point_v<T>) {
    table.addDouble(static_cast<double>(value));
  } else if constexpr (std::is_convertible_v<T, std::string_view>) {
    table.addText(std::string_view(value));
  } else {  // std::optional
    if (value.has_value()) {
      appendValue(table, *value);
    } else {
      table.addNull();
    }
  }
}

std::string formatTime(int64_t epochSeconds, bool local) {
  std::time_t seconds = static_cast<std::time_t>(epochSeconds);
  std::tm parts{};
  if (local ? localtime_r(&seconds, &parts) == nullptr : gmtime_r(&seconds, &parts) == nullptr) return {};
  char text[32];
  size_t length = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &parts);
  return std::string(text, length);
}

// Database page size while recording; readers take any.
constexpr int kPageBytes = 16384;

// Tables written by the lane (TableLane): the GPU activity, whose rows are the widest.
bool onGpuLane(StatementId id) {
  return id == kKernelStmt || id == kMemcpyStmt || id == kMemsetStmt || id == kSyncStmt;
}

constexpr std::string_view kLaneSchema = "gpuscope_lane";

}  // namespace

TraceWriter::TraceWriter(const std::string& path, WriterOptions options) : path_(path), options_(std::move(options)) {
  if (options_.rowsPerTransaction == 0) options_.rowsPerTransaction = 1;
  db_ = std::make_unique<Statements>();
  std::error_code ec;
  std::filesystem::remove(path_, ec);
  std::filesystem::remove(path_ + "-journal", ec);
  open();
  // A file written once by one writer: no syncs, and pages large enough that appends split few of
  // them. page_size only takes effect before the first table. The journal stays (see bulk).
  exec(options_.bulk
           ? "PRAGMA page_size=" + std::to_string(kPageBytes) + "; PRAGMA journal_mode=DELETE; PRAGMA synchronous=OFF;"
           : std::string("PRAGMA synchronous=NORMAL;"));
  exec("PRAGMA cache_size=-65536;");  // 64 MiB: index creation sorts whole tables
  exec("BEGIN");
  for (const TableSpec& spec : traceSchema())
    if (spec.inEveryFile) createTable(spec);
  prepareInserts(options_.bulk && options_.gpuLane);
}

TraceWriter::TraceWriter(const std::string& path, WriterOptions options, Resume)
    : path_(path), options_(std::move(options)) {
  if (options_.rowsPerTransaction == 0) options_.rowsPerTransaction = 1;
  db_ = std::make_unique<Statements>();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path_, ec)) throw TraceError(path_ + " does not exist.");
  open();
  exec("PRAGMA synchronous=OFF; PRAGMA cache_size=-65536;");
  // Reading the file rolls back what the killed writer left in its journal.
  // META_DATA_EXPORT is written by finish(): rows there mean the file was finished.
  sqlite3_stmt* finished = nullptr;
  std::string sql = "SELECT count(*) FROM " + std::string(table::kMetaDataExport);
  bool readable = sqlite3_prepare_v2(db_->db(), sql.c_str(), -1, &finished, nullptr) == SQLITE_OK &&
                  sqlite3_step(finished) == SQLITE_ROW;
  bool complete = readable && sqlite3_column_int64(finished, 0) > 0;
  sqlite3_finalize(finished);
  if (!readable) throw TraceError(path_ + " is not a trace file that gpuscope record was writing.");
  if (complete) throw TraceError(path_ + " is a finished trace already: there is nothing to recover.");
  std::string lanePath = path_ + ".gpu-lane";
  if (std::filesystem::exists(lanePath, ec)) {
    std::vector<std::string_view> laneTables;
    for (const InsertSpec& insert : insertSpecs()) {
      if (onGpuLane(insert.id)) laneTables.push_back(insert.table);
    }
    copyLaneTables(lanePath, laneTables);
    std::filesystem::remove(lanePath, ec);
    std::filesystem::remove(lanePath + "-journal", ec);
  }
  exec("BEGIN");
  prepareInserts(false);
  loadStrings();
  for (const TableSpec& spec : traceSchema())
    if (tableExists(db_->db(), spec.name)) {
      db_->created.insert(spec.name);
      db_->indexed.insert(spec.name);
    }
}

std::unique_ptr<TraceWriter> TraceWriter::resume(const std::string& path, WriterOptions options) {
  return std::unique_ptr<TraceWriter>(new TraceWriter(path, std::move(options), Resume{}));
}

void TraceWriter::prepareInserts(bool lane) {
  db_->tables.reserve(kStatementCount);
  std::vector<LaneTable> laneTables;
  for (const InsertSpec& insert : insertSpecs()) {
    if (static_cast<size_t>(insert.id) != db_->tables.size())
      throw std::logic_error("TraceWriter insert specs are out of order");
    checkColumns(insert);
    // Adding to a finished file (an nsys export of any version) goes through tableRows() and intern() alone.
    if (db_->appending && insert.id != kStringStmt) {
      db_->tables.emplace_back();
      db_->pending.push_back(std::make_unique<CellRows>(insert.columns.size(), 1));
    } else {
      db_->tables.emplace_back(std::in_place, db_->db(), insert.table, insert.columns);
      db_->pending.push_back(std::make_unique<CellRows>(insert.columns.size(), db_->tables.back()->rowsPerStatement()));
    }
    bool onLane = lane && onGpuLane(insert.id);
    db_->laneTable.push_back(onLane ? static_cast<int>(laneTables.size()) : -1);
    if (onLane) laneTables.push_back({insert.table, insert.columns});
  }
  if (laneTables.empty()) return;
  try {
    db_->lane = std::make_unique<TableLane>(path_ + ".gpu-lane", std::move(laneTables), kPageBytes,
                                            options_.rowsPerTransaction);
  } catch (const TraceError& error) {
    throw TraceError("Writing " + path_ + " failed: " + error.what());
  }
}

void TraceWriter::open() {
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  if (sqlite3_open_v2(path_.c_str(), &db_->connection.handle, flags, nullptr) != SQLITE_OK) {
    std::string reason = db_->db() ? sqlite3_errmsg(db_->db()) : "out of memory";
    throw TraceError(path_ + " could not be created (" + reason + ").");
  }
}

void TraceWriter::exec(const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db_->db(), sql.c_str(), nullptr, nullptr, &error) == SQLITE_OK) return;
  std::string reason = error ? error : sqlite3_errmsg(db_->db());
  sqlite3_free(error);
  throw TraceError("Writing " + path_ + " failed: " + reason + ".");
}

TraceWriter::~TraceWriter() {
  if (finished_ || !db_) return;
  try {
    // Rows added to a finished file go in all together or not at all: the connection's close rolls back.
    if (db_->appending) return;
    flushTables();
    exec("COMMIT");
    mergeLane();
  } catch (const std::exception&) {
    // The destructor must not throw; the file keeps what the last commit wrote.
  }
  removeLane();
}

template <typename... Values>
void TraceWriter::insert(int statement, const Values&... values) {
  if (finished_) throw std::logic_error("TraceWriter: a row was appended after finish()");
  CellRows& rows = *db_->pending[static_cast<size_t>(statement)];
  if (sizeof...(Values) != rows.columns()) throw std::logic_error("TraceWriter: a row of the wrong width");
  (appendValue(rows, values), ...);
  if (rows.endRow()) writeRows(static_cast<size_t>(statement));
  ++rowCount_;
  commitIfDue();
}

void TraceWriter::writeRows(size_t statement) {
  std::unique_ptr<CellRows>& rows = db_->pending[statement];
  try {
    int lane = db_->laneTable[statement];
    if (lane < 0) {
      if (!db_->tables[statement]) throw std::logic_error("TraceWriter: a row for a table the file does not have");
      db_->tables[statement]->write(*rows);
      return;
    }
    size_t columns = rows->columns();
    size_t capacity = rows->capacity();
    std::unique_ptr<CellRows> empty;
    try {
      empty = db_->lane->submit(static_cast<size_t>(lane), std::move(rows));
    } catch (...) {
      rows = std::make_unique<CellRows>(columns, capacity);
      throw;
    }
    rows = empty ? std::move(empty) : std::make_unique<CellRows>(columns, capacity);
  } catch (const TraceError& error) {
    throw TraceError("Writing " + path_ + " failed: " + error.what() + ".");
  }
}

void TraceWriter::flushTables() {
  for (size_t statement = 0; statement < db_->pending.size(); ++statement) {
    if (db_->laneTable[statement] < 0 && db_->pending[statement]->rows() > 0) writeRows(statement);
  }
}

// Hands the lane what it still lacks, waits until it wrote everything, and copies its tables into
// the trace file.
void TraceWriter::mergeLane() {
  if (!db_->lane) return;
  for (size_t statement = 0; statement < db_->pending.size(); ++statement) {
    if (db_->laneTable[statement] >= 0 && db_->pending[statement]->rows() > 0) writeRows(statement);
  }
  try {
    db_->lane->finish();
  } catch (const TraceError& error) {
    throw TraceError("Writing " + path_ + " failed: " + error.what() + ".");
  }
  std::string lanePath = db_->lane->path();
  std::vector<std::string_view> tables;
  for (const LaneTable& table : db_->lane->tables()) tables.push_back(table.table);
  db_->lane.reset();
  copyLaneTables(lanePath, tables);
  removeLane();
}

// INSERT ... SELECT *, which SQLite runs as a record-by-record transfer.
void TraceWriter::copyLaneTables(const std::string& lanePath, const std::vector<std::string_view>& tables) {
  sqlite3_stmt* attach = nullptr;
  std::string attachSql = "ATTACH DATABASE ?1 AS " + std::string(kLaneSchema);
  int rc = sqlite3_prepare_v2(db_->db(), attachSql.c_str(), -1, &attach, nullptr);
  if (rc == SQLITE_OK) {
    sqlite3_bind_text(attach, 1, lanePath.c_str(), static_cast<int>(lanePath.size()), SQLITE_TRANSIENT);
    rc = sqlite3_step(attach);
  }
  sqlite3_finalize(attach);
  if (rc != SQLITE_DONE) throw TraceError("Writing " + path_ + " failed: " + sqlite3_errmsg(db_->db()) + ".");
  exec("BEGIN");
  for (std::string_view table : tables) {
    exec("INSERT INTO main." + std::string(table) + " SELECT * FROM " + std::string(kLaneSchema) + "." +
         std::string(table));
  }
  exec("COMMIT");
  exec("DETACH DATABASE " + std::string(kLaneSchema));
}

void TraceWriter::removeLane() {
  if (!db_) return;
  db_->lane.reset();
  std::error_code ec;
  std::filesystem::remove(path_ + ".gpu-lane", ec);
  std::filesystem::remove(path_ + ".gpu-lane-journal", ec);
}

void TraceWriter::commit() {
  if (finished_) return;
  flushTables();
  exec("COMMIT; BEGIN");
  rowsInTransaction_ = 0;
  if (!db_->lane) return;
  for (size_t statement = 0; statement < db_->pending.size(); ++statement) {
    if (db_->laneTable[statement] >= 0 && db_->pending[statement]->rows() > 0) writeRows(statement);
  }
  try {
    db_->lane->commit();
  } catch (const TraceError& error) {
    throw TraceError("Writing " + path_ + " failed: " + error.what() + ".");
  }
}

void TraceWriter::commitIfDue() {
  if (++rowsInTransaction_ < options_.rowsPerTransaction) return;
  flushTables();
  exec("COMMIT; BEGIN");
  rowsInTransaction_ = 0;
}

int64_t TraceWriter::intern(std::string_view text) {
  auto found = db_->strings.find(text);
  if (found != db_->strings.end()) return found->second;
  int64_t id = db_->nextStringId++;
  db_->strings.emplace(std::string(text), id);
  insert(kStringStmt, id, text);
  return id;
}

void TraceWriter::addKernel(const KernelRow& r) {
  int64_t demangled = intern(r.demangledName);
  int64_t shortName = intern(r.shortName);
  std::optional<int64_t> mangled;
  if (!r.mangledName.empty()) mangled = intern(r.mangledName);
  insert(kKernelStmt, r.start, r.end, r.deviceId, r.contextId, r.greenContextId, r.streamId, r.correlationId,
         r.globalPid, demangled, shortName, mangled, r.launchType, r.cacheConfig, r.registersPerThread, r.gridX,
         r.gridY, r.gridZ, r.blockX, r.blockY, r.blockZ, r.staticSharedMemory, r.dynamicSharedMemory,
         r.localMemoryPerThread, r.localMemoryTotal, r.gridId, r.sharedMemoryExecuted, r.graphNodeId,
         r.sharedMemoryLimitConfig);
}

void TraceWriter::addCudaApi(const CudaApiRow& r) {
  int eventClass =
      r.kind == CudaApiKind::Runtime ? nsys_enum::kEventClassCudaRuntime : nsys_enum::kEventClassCudaDriver;
  insert(kApiStmt, r.start, r.end, eventClass, r.globalTid, r.correlationId, intern(r.name), r.returnValue,
         r.callchainId);
}

void TraceWriter::addMemcpy(const MemcpyRow& r) {
  insert(kMemcpyStmt, r.start, r.end, r.deviceId, r.contextId, r.greenContextId, r.streamId, r.correlationId,
         r.globalPid, r.bytes, r.copyKind, r.srcKind, r.dstKind, r.srcDeviceId, r.srcContextId, r.dstDeviceId,
         r.dstContextId, r.migrationCause, r.graphNodeId, r.virtualAddress);
}

void TraceWriter::addMemset(const MemsetRow& r) {
  insert(kMemsetStmt, r.start, r.end, r.deviceId, r.contextId, r.greenContextId, r.streamId, r.correlationId,
         r.globalPid, r.value, r.bytes, r.graphNodeId, r.memKind);
}

void TraceWriter::addSync(const SyncRow& r) {
  insert(kSyncStmt, r.start, r.end, r.deviceId, r.contextId, r.greenContextId, r.streamId, r.correlationId, r.globalPid,
         r.syncType, r.eventId, r.eventSyncId);
}

void TraceWriter::insertNvtx(int eventType, const NvtxRow& r) {
  // NVTX text goes inline, or for registered strings through StringIds as textId.
  std::optional<std::string_view> text;
  std::optional<int64_t> textId;
  if (r.registeredText) {
    textId = intern(r.text);
  } else {
    text = r.text;
  }
  std::optional<TimeNs> end;
  if (eventType != nsys_enum::kNvtxMark) end = r.end;
  insert(kNvtxStmt, r.start, end, eventType, r.rangeId, r.category, r.color, text, r.globalTid, r.endGlobalTid, textId,
         r.domainId);
}

void TraceWriter::addNvtxPushPopRange(const NvtxRow& row) { insertNvtx(nsys_enum::kNvtxPushPopRange, row); }
void TraceWriter::addNvtxStartEndRange(const NvtxRow& row) { insertNvtx(nsys_enum::kNvtxStartEndRange, row); }
void TraceWriter::addNvtxMark(const NvtxRow& row) { insertNvtx(nsys_enum::kNvtxMark, row); }

void TraceWriter::addNvtxDomainCreate(const NvtxDomainRow& r) {
  insert(kNvtxStmt, r.start, nullptr, nsys_enum::kNvtxDomainCreate, nullptr, nullptr, nullptr, r.name, r.globalTid,
         nullptr, nullptr, r.domainId);
}

void TraceWriter::addOsRuntime(const OsRuntimeRow& r) {
  insert(kOsrtStmt, r.start, r.end, nsys_enum::kEventClassOsRuntime, r.globalTid, intern(r.name), r.returnValue,
         r.nestingLevel, r.callchainId);
}

void TraceWriter::addProcess(const ProcessRow& r) { insert(kProcessStmt, r.globalPid, r.pid, r.name); }

void TraceWriter::addThreadName(const ThreadNameRow& r) {
  insert(kThreadStmt, intern(r.name), r.priority, r.globalTid);
}

void TraceWriter::addGpu(const GpuInfoRow& r) {
  insert(kGpuStmt, r.vmId, r.id, r.name, r.busLocation, r.isDiscrete, r.l2CacheSize, r.totalMemory, r.memoryBandwidth,
         r.clockRate, r.smCount, r.pwGpuId, r.uuid, r.luid, r.chipName, r.cuDevice, r.ctxswDevPath, r.ctrlDevPath,
         r.revision, r.nodeMask, r.constantMemory, r.maxIPC, r.maxRegistersPerBlock, r.maxShmemPerBlock,
         r.maxShmemPerBlockOptin, r.maxShmemPerSm, r.maxRegistersPerSm, r.threadsPerWarp, r.asyncEngines,
         r.maxWarpsPerSm, r.maxBlocksPerSm, r.maxThreadsPerBlock, r.maxBlockDimX, r.maxBlockDimY, r.maxBlockDimZ,
         r.maxGridDimX, r.maxGridDimY, r.maxGridDimZ, r.computeMajor, r.computeMinor, r.smMajor, r.smMinor);
}

void TraceWriter::addCudaStream(const CudaStreamRow& r) {
  insert(kStreamStmt, r.streamId, r.hwId, r.vmId, r.processId, r.contextId, r.priority, r.flag);
}

void TraceWriter::setSessionStart(int64_t utcEpochNs) {
  int64_t seconds = utcEpochNs / 1'000'000'000;
  insert(kSessionStmt, utcEpochNs, formatTime(seconds, false), formatTime(seconds, true));
}

void TraceWriter::addMeta(std::string_view name, std::string_view value) { insert(kMetaStmt, name, value); }

void TraceWriter::writeMetadata() {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path absolute = fs::absolute(path_, ec);
  auto now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch());
  std::string_view schema = kNsysSchemaVersion;
  size_t dot1 = schema.find('.');
  size_t dot2 = schema.find('.', dot1 + 1);
  const std::pair<std::string_view, std::string> exportRows[] = {
      {"EXPORT_PRODUCT_NAME", "gpuscope"},
      {"EXPORT_PRODUCT_VERSION", options_.recorderVersion},
      {"EXPORT_SCHEMA_VERSION", std::string(schema)},
      {"EXPORT_SCHEMA_VERSION_MAJOR", std::string(schema.substr(0, dot1))},
      {"EXPORT_SCHEMA_VERSION_MINOR", std::string(schema.substr(dot1 + 1, dot2 - dot1 - 1))},
      {"EXPORT_SCHEMA_VERSION_MICRO", std::string(schema.substr(dot2 + 1))},
      {"EXPORT_TIME_UTC", formatTime(now.count(), false)},
      {"EXPORT_PARAM_OUTPUT_FILE", fs::path(path_).filename().string()},
      {"EXPORT_PARAM_OUTPUT_PATH_ABS", ec ? path_ : absolute.string()},
  };
  for (const auto& [name, value] : exportRows) insert(kExportStmt, name, value);
  addMeta("format_version", std::to_string(kTraceFormatVersion));
  addMeta("recorder_version", options_.recorderVersion);
  if (!options_.commandLine.empty()) addMeta("command_line", options_.commandLine);
}

void TraceWriter::finish() {
  if (finished_) return;
  if (!db_->appending) writeMetadata();
  flushTables();
  finished_ = true;
  exec("COMMIT");
  mergeLane();
  exec("BEGIN");
  createIndexes();
  exec("COMMIT");
  db_.reset();  // finalizes the statements and closes the file
}

}  // namespace gpuscope
