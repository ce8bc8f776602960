#include "core/model/event_scan.h"

#include <limits>
#include <unordered_map>

#include "core/db/row_scan.h"
#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/global_id.h"
#include "core/model/lane_accumulator.h"
#include "core/model/trace_file.h"
#include "core/model/trace_values.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {
namespace {

constexpr int64_t kProgressEvery = 1 << 16;

// Which track an event belongs to: a thread (and NVTX domain) or a stream of a device in a process.
struct TrackKey {
  int64_t owner;  // globalTid (CPU) or globalPid (GPU)
  int64_t a;      // NVTX domain (CPU) or device (GPU)
  int64_t b;      // context
  int64_t c;      // stream
  friend bool operator==(const TrackKey&, const TrackKey&) = default;
};

struct TrackKeyHash {
  size_t operator()(const TrackKey& k) const {
    size_t h = std::hash<int64_t>()(k.owner);
    for (int64_t v : {k.a, k.b, k.c}) h = h * 1000003u ^ std::hash<int64_t>()(v);
    return h;
  }
};

// Groups events by track while a table is read, each track's into its lanes; then builds the tracks.
// keepStyle: whether the lanes carry the style column.
class TrackBuckets {
 public:
  TrackBuckets(TrackKind kind, bool keepStyle) : kind_(kind), keepStyle_(keepStyle) {}

  LaneAccumulator& bucket(const TrackKey& key) {
    if (last_ && key == lastKey_) return *last_;
    lastKey_ = key;
    last_ = &buckets_[indexOf(key)];
    return *last_;
  }

  std::vector<Track> build() {
    std::vector<Track> tracks;
    tracks.reserve(buckets_.size());
    for (size_t i = 0; i < buckets_.size(); ++i) tracks.push_back(makeTrack(keys_[i], buckets_[i]));
    return tracks;
  }

 private:
  Track makeTrack(const TrackKey& key, LaneAccumulator& events) {
    Track track;
    track.kind = kind_;
    track.globalTid = key.owner;
    track.pid = global_id::pid(key.owner);
    if (kind_ == TrackKind::GpuKernels || kind_ == TrackKind::GpuMemory) {
      track.deviceId = static_cast<uint32_t>(key.a);
      track.contextId = static_cast<uint32_t>(key.b);
      track.streamId = static_cast<uint32_t>(key.c);
    } else {
      track.tid = global_id::tid(key.owner);
      track.nvtxDomain = key.a;
    }
    track.lanes = events.finish();
    track.first = std::numeric_limits<TimeNs>::max();
    track.last = std::numeric_limits<TimeNs>::min();
    for (const auto& lane : track.lanes) {
      if (lane.size() == 0) continue;
      track.first = std::min(track.first, lane.start.front());
      track.last = std::max(track.last, lane.end(lane.size() - 1));
    }
    return track;
  }

  // Rows of interleaved streams or threads change track at almost every row. Most files have a few dozen
  // tracks, which a look along the keys finds sooner than hashing four fields; the map takes over past that.
  static constexpr size_t kLinearKeys = 32;

  size_t indexOf(const TrackKey& key) {
    if (keys_.size() <= kLinearKeys) {
      for (size_t i = 0; i < keys_.size(); ++i)
        if (keys_[i] == key) return i;
    } else if (auto it = index_.find(key); it != index_.end()) {
      return it->second;
    }
    buckets_.emplace_back(keepStyle_);
    keys_.push_back(key);
    if (keys_.size() == kLinearKeys + 1)
      for (size_t i = 0; i < keys_.size(); ++i) index_.emplace(keys_[i], i);
    else if (keys_.size() > kLinearKeys + 1)
      index_.emplace(key, keys_.size() - 1);
    return keys_.size() - 1;
  }

  TrackKind kind_;
  bool keepStyle_;
  std::vector<LaneAccumulator> buckets_;
  std::vector<TrackKey> keys_;
  std::unordered_map<TrackKey, size_t, TrackKeyHash> index_;
  TrackKey lastKey_{};
  LaneAccumulator* last_ = nullptr;
};

// Reads one table's rows with checks that turn hostile input into one-sentence errors. forEach runs its
// body once per row, inside SQLite's loop (core/db/row_scan); the accessors read the current row.
class RowReader {
 public:
  RowReader(ScanContext& context, std::string_view table, std::string columns)
      : context_(context),
        table_(table),
        columns_("rowid, " + std::move(columns)),
        db_(Database::openReadOnly(context.path, Threading::SingleThread)) {}

  template <class Body>
  void forEach(Body&& body) {
    forEachRow(db_, columns_, table_, [&](const RowValues& values) {
      if (++pending_ == kProgressEvery) flushProgress();
      values_ = &values;
      int64_t rowid = values.readInteger(0).value;
      if (rowid < 0 || rowid > std::numeric_limits<uint32_t>::max())
        throw TraceError(value_problem::sentence(table_, rowid, value_problem::rowidOutOfRange(rowid)));
      row_ = static_cast<uint32_t>(rowid);
      body();
    });
    flushProgress();
  }

  uint32_t row() const { return row_; }
  bool isNull(int column) const { return values_->isNull(column); }
  std::string_view text(int column) const { return values_->text(column); }

  int64_t required(int column, const char* what) const {
    auto read = values_->readInteger(column);
    if (read.null) fail(value_problem::missing(what));
    if (!read.integer) fail(value_problem::notInteger(what, values_->typeName(column)));
    return read.value;
  }
  int64_t optional(int column) const {
    auto read = values_->readInteger(column);
    return read.null ? 0 : read.value;
  }

  // start and end of an interval, checked to be present and ordered.
  std::pair<TimeNs, TimeNs> interval(int startColumn, int endColumn) const {
    TimeNs start = required(startColumn, "start time");
    TimeNs end = required(endColumn, "end time");
    if (end < start) fail(value_problem::endsBeforeStart(start, end));
    return {start, end};
  }

  StringId string(int column, const char* what) const {
    int64_t fileId = required(column, what);
    StringId id = context_.strings->fromFileId(fileId);
    if (id == StringTable::kMissing) fail(value_problem::danglingString(fileId, what));
    return id;
  }

  [[noreturn]] void fail(const std::string& problem) const {
    throw TraceError(value_problem::sentence(table_, row_, problem));
  }

 private:
  void flushProgress() {
    context_.advance(pending_);
    pending_ = 0;
  }

  ScanContext& context_;
  std::string_view table_;
  std::string columns_;
  Database db_;
  const RowValues* values_ = nullptr;
  uint32_t row_ = 0;
  int64_t pending_ = 0;
};

uint32_t correlationOf(const RowReader& r, int column) { return static_cast<uint32_t>(r.optional(column)); }

TrackKey gpuKey(const RowReader& r) {
  return {r.optional(3), r.required(4, "deviceId"), r.required(5, "contextId"), r.required(6, "streamId")};
}

const std::string kGpuColumns = "start, end, globalPid, deviceId, contextId, streamId, correlationId";

}  // namespace

void ScanContext::advance(int64_t rows) {
  if (options->cancel && options->cancel->load(std::memory_order_relaxed)) throw LoadCancelled();
  int64_t done = rowsDone.fetch_add(rows) + rows;
  if (options->progress) {
    std::lock_guard lock(progressMutex);
    options->progress(std::min(1.0, static_cast<double>(done) / static_cast<double>(rowsTotal)));
  }
}

ScanResult scanIntegrity(ScanContext& context) {
  checkIntegrity(Database::openReadOnly(context.path, Threading::SingleThread));
  return {};
}

ScanResult scanCudaApi(ScanContext& context) {
  RowReader r(context, table::kRuntime, "start, end, globalTid, correlationId, nameId");
  TrackBuckets buckets(TrackKind::CudaApi, false);
  ScanResult result;
  r.forEach([&] {
    auto [start, end] = r.interval(1, 2);
    TrackKey key{r.required(3, "globalTid"), 0, 0, 0};
    buckets.bucket(key).add({start, end, r.string(5, "nameId"), correlationOf(r, 4), r.row(), 0});
    ++result.events;
  });
  result.tracks = buckets.build();
  return result;
}

ScanResult scanOsRuntime(ScanContext& context) {
  RowReader r(context, table::kOsrt, "start, end, globalTid, nameId");
  TrackBuckets buckets(TrackKind::OsRuntime, false);
  ScanResult result;
  r.forEach([&] {
    auto [start, end] = r.interval(1, 2);
    TrackKey key{r.required(3, "globalTid"), 0, 0, 0};
    buckets.bucket(key).add({start, end, r.string(4, "nameId"), 0, r.row(), 0});
    ++result.events;
  });
  result.tracks = buckets.build();
  return result;
}

ScanResult scanKernels(ScanContext& context) {
  // The demangled name rides in the style column (Lane::style), so that tables can show, search and group
  // by the real kernel while the timeline labels bars by the short name.
  bool demangled = context.kernelHasDemangledName;
  RowReader r(context, table::kKernel, kGpuColumns + (demangled ? ", shortName, demangledName" : ", shortName"));
  TrackBuckets buckets(TrackKind::GpuKernels, true);
  ScanResult result;
  r.forEach([&] {
    auto [start, end] = r.interval(1, 2);
    StringId shortName = r.string(8, "shortName");
    StringId longName = demangled && !r.isNull(9) ? r.string(9, "demangledName") : shortName;
    buckets.bucket(gpuKey(r)).add({start, end, shortName, correlationOf(r, 7), r.row(), longName});
    ++result.events;
  });
  result.tracks = buckets.build();
  return result;
}

ScanResult scanMemory(ScanContext& context) {
  TrackBuckets buckets(TrackKind::GpuMemory, true);
  ScanResult result;
  if (context.hasMemcpy) {
    RowReader r(context, table::kMemcpy, kGpuColumns + ", copyKind");
    r.forEach([&] {
      auto [start, end] = r.interval(1, 2);
      int64_t kind = r.required(8, "copyKind");
      bool known = kind >= 0 && kind < static_cast<int64_t>(context.memcpyNames.size());
      StringId name = known ? context.memcpyNames[static_cast<size_t>(kind)] : context.unknownMemcpyName;
      auto style = known ? static_cast<uint32_t>(kind) : 0u;
      buckets.bucket(gpuKey(r)).add({start, end, name, correlationOf(r, 7), r.row(), style});
      ++result.memcpys;
    });
  }
  if (context.hasMemset) {
    RowReader r(context, table::kMemset, kGpuColumns);
    r.forEach([&] {
      auto [start, end] = r.interval(1, 2);
      buckets.bucket(gpuKey(r)).add({start, end, context.memsetName, correlationOf(r, 7), r.row(), kMemsetStyle});
      ++result.memsets;
    });
  }
  result.events = result.memcpys + result.memsets;
  result.tracks = buckets.build();
  return result;
}

// Local names of NVTX text met inline: interned per scan, remapped into the trace afterwards.
class LocalStrings {
 public:
  // Looked up by the row's own text first: a string made per row only to find it cost more than the NVTX
  // scan's SQLite work.
  StringId intern(std::string_view text) {
    if (auto it = index_.find(text); it != index_.end()) return it->second | kLocalStringBit;
    auto id = static_cast<StringId>(strings_.size());
    index_.emplace(std::string(text), id);
    strings_.emplace_back(text);
    return id | kLocalStringBit;
  }
  std::vector<std::string> release() { return std::move(strings_); }

 private:
  struct TextHash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>()(text); }
  };
  std::vector<std::string> strings_;
  std::unordered_map<std::string, StringId, TextHash, std::equal_to<>> index_;
};

ScanResult scanNvtx(ScanContext& context) {
  std::string color = context.nvtxHasColor ? "color" : "NULL";
  RowReader r(context, table::kNvtx, "start, end, eventType, globalTid, text, textId, domainId, " + color);
  TrackBuckets buckets(TrackKind::Nvtx, true);
  LocalStrings local;
  ScanResult result;
  r.forEach([&] {
    int64_t type = r.required(3, "eventType");
    if (type == nsys_enum::kNvtxDomainCreate) {
      result.nvtxDomains.emplace_back(r.optional(7), std::string(r.text(5)));
      return;
    }
    bool isRange = type == nsys_enum::kNvtxPushPopRange || type == nsys_enum::kNvtxStartEndRange;
    if (!isRange && type != nsys_enum::kNvtxMark) return;
    TimeNs start = r.required(1, "start time");
    // A mark, or a range that never ended, is drawn as an instant.
    TimeNs end = r.isNull(2) ? start : r.required(2, "end time");
    if (end < start) r.fail(value_problem::endsBeforeStart(start, end));
    StringId name = !r.isNull(5) ? local.intern(r.text(5)) : !r.isNull(6) ? r.string(6, "textId") : local.intern("");
    TrackKey key{r.required(4, "globalTid"), r.optional(7), 0, 0};
    auto argb = static_cast<uint32_t>(r.optional(8));
    buckets.bucket(key).add({start, end, name, 0, r.row(), argb});
    ++result.events;
  });
  result.tracks = buckets.build();
  result.localStrings = local.release();
  return result;
}

}  // namespace gpuscope
