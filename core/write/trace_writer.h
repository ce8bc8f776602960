#pragma once
// TraceWriter: writes a trace file in the nsys export schema, in large transactions, for the recorder and tests.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/write/trace_rows.h"

namespace gpuscope {

struct TableSpec;

// Version of what gpuscope writes on top of the nsys schema (GPUSCOPE_META format_version).
inline constexpr int kTraceFormatVersion = 1;

struct WriterOptions {
  // Rows appended between two commits; the last transaction is committed by finish().
  size_t rowsPerTransaction = 200'000;
  // synchronous=OFF and large pages: fast. A rollback journal is kept still (it holds only the few
  // pages a transaction changes; appended pages need none), so a writer killed mid-transaction
  // leaves a file that opens as of its last commit (see commit() and resume()).
  bool bulk = true;
  // With bulk: kernel, memcpy, memset and synchronization rows are inserted by a second thread into
  // a side file (PATH.gpu-lane), which finish() copies into the trace; the inserts are most of the
  // writer's time, and SQLite writes one file from one thread only.
  bool gpuLane = true;
  // GPUSCOPE_META recorder_version and META_DATA_EXPORT EXPORT_PRODUCT_VERSION; the recorder passes
  // its build's version (GPUSCOPE_VERSION); the default is the project version in CMakeLists.txt.
  std::string recorderVersion = GPUSCOPE_VERSION;  // the project version, from CMake
  // GPUSCOPE_META command_line (the recorded program and its arguments); omitted when empty.
  std::string commandLine;
};

// Creates PATH (replacing it) with every table of the trace schema and the ENUM_* rows we use;
// rows are appended through prepared statements; finish() writes the metadata and the indexes.
// Appending after finish() is a logic error. Errors (disk full, unwritable path) throw TraceError.
// One thread uses a writer; it is not synchronized.
class TraceWriter {
 public:
  explicit TraceWriter(const std::string& path, WriterOptions options = {});
  // The writer of a file a killed writer left at PATH: as of its last commit (a journal left beside
  // it is rolled back), with the rows of its GPU lane's side file (PATH.gpu-lane) copied in. Rows
  // can be appended; finish() writes the metadata and the indexes. Throws TraceError when PATH is
  // no unfinished trace file.
  static std::unique_ptr<TraceWriter> resume(const std::string& path, WriterOptions options = {});
  // The writer that adds rows to the finished trace file at PATH (a recording, an nsys export): the tables
  // it lacks are created when first written, its strings are reused, and finish() commits every row at once
  // (none when it throws first) and indexes only the tables it created. Callers check first that PATH is a
  // trace (openTraceFile). Throws TraceError when PATH cannot be opened for writing.
  static std::unique_ptr<TraceWriter> addTo(const std::string& path);
  // An unfinished writer commits what it has (no indexes, no metadata), swallowing errors.
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  // The StringIds id of TEXT, adding it on first use.
  int64_t intern(std::string_view text);

  void addKernel(const KernelRow& row);
  void addCudaApi(const CudaApiRow& row);
  void addMemcpy(const MemcpyRow& row);
  void addMemset(const MemsetRow& row);
  void addSync(const SyncRow& row);
  void addNvtxPushPopRange(const NvtxRow& row);
  void addNvtxStartEndRange(const NvtxRow& row);
  void addNvtxMark(const NvtxRow& row);
  void addNvtxDomainCreate(const NvtxDomainRow& row);
  void addOsRuntime(const OsRuntimeRow& row);
  void addProcess(const ProcessRow& row);
  void addThreadName(const ThreadNameRow& row);
  void addGpu(const GpuInfoRow& row);
  void addCudaStream(const CudaStreamRow& row);
  // TARGET_INFO_SESSION_START_TIME: the wall-clock time of trace time 0, in ns since the Unix epoch.
  void setSessionStart(int64_t utcEpochNs);
  // An extra GPUSCOPE_META row.
  void addMeta(std::string_view name, std::string_view value);

  // Rows of any declared table (core/schema), by column name: tableRows() returns a handle for addRow(),
  // whose cells come in COLUMNS' order. The table is created on first use where the file lacks it. A text
  // cell in a string-reference column is interned (StringIds): callers hand over the strings themselves.
  using Cell = std::variant<std::monostate, int64_t, double, std::string_view>;

  // REPLACE: a row repeating a unique key of the table replaces the one there.
  enum class RowConflict { Fail, Replace };
  int tableRows(std::string_view table, std::vector<std::string_view> columns,
                RowConflict conflict = RowConflict::Fail);
  void addRow(int rows, std::initializer_list<Cell> cells);

  // Commits every row appended so far, the GPU lane's too: a writer killed after this leaves them
  // in the file. The recorder calls it every half second.
  void commit();

  // Commits the rows, writes META_DATA_EXPORT and GPUSCOPE_META, creates the indexes and closes the file.
  void finish();

  const std::string& path() const { return path_; }
  // Rows appended so far, StringIds and metadata included.
  size_t rowCount() const { return rowCount_; }

 private:
  struct Statements;
  struct Resume {};
  TraceWriter(const std::string& path, WriterOptions options, Resume);
  struct Append {};
  TraceWriter(const std::string& path, Append);
  // Prepares the inserts into the tables PATH has (LANE: the GPU tables go to the side file).
  void prepareInserts(bool lane);
  void loadStrings();
  // Copies the tables of the side file LANEPATH into the trace file.
  void copyLaneTables(const std::string& lanePath, const std::vector<std::string_view>& tables);
  template <typename... Values>
  void insert(int statement, const Values&... values);
  void insertNvtx(int eventType, const NvtxRow& row);
  void open();
  // Runs SQL; a failure throws TraceError naming the file.
  void exec(const std::string& sql);
  // Writes the full (or, at a commit, partial) rows of table STATEMENT, or hands them to the lane.
  void writeRows(size_t statement);
  // Writes the rows the trace file's tables still buffer.
  void flushTables();
  void mergeLane();
  void removeLane();
  void commitIfDue();
  void createTable(const TableSpec& spec);
  void writeMetadata();
  void createIndexes();

  std::string path_;
  WriterOptions options_;
  std::unique_ptr<Statements> db_;
  size_t rowCount_ = 0;
  size_t rowsInTransaction_ = 0;
  bool finished_ = false;
};

// A cell holding VALUE, or NULL where it has none.
template <typename T>
TraceWriter::Cell optionalCell(const std::optional<T>& value) {
  return value ? TraceWriter::Cell(*value) : TraceWriter::Cell();
}

}  // namespace gpuscope
