#include "core/model/trace_loader.h"

#include <algorithm>
#include <future>
#include <limits>
#include <map>
#include <optional>
#include <thread>
#include <tuple>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/event_scan.h"
#include "core/model/global_id.h"
#include "core/model/rank_table.h"
#include "core/model/target_info.h"
#include "core/model/time_math.h"
#include "core/model/trace_file.h"
#include "core/schema/nsys_enums.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {
namespace {

// The NVTX domain nsys's Python sampling marks each sample in.
constexpr std::string_view kNsysPythonSamplingDomain = "Python Periodic Sampling";

}  // namespace

// Builds a Trace from a file: parallel table scans, then tracks and hierarchy. The correlation indexes are
// built on first use (Trace::buildCorrelationIndexes), not here: a window or a report that needs none opens
// without waiting for them.
class TraceLoader {
 public:
  TraceLoader(const std::string& path, const LoadOptions& options) : path_(path), options_(options) {}

  std::unique_ptr<Trace> load() {
    trace_ = std::make_unique<Trace>();
    trace_->path_ = options_.namedPath.empty() ? path_ : options_.namedPath;
    trace_->db_ = std::make_unique<Database>(openTraceFile(path_));
    const Database& db = *trace_->db_;
    strings_.loadStringIds(db);
    prepareContext(db);
    auto results = runScans(db);
    collectTracks(results);
    trace_->strings_ = strings_.release();
    orderTracksAndBuildHierarchy(db);
    finishCountsAndSpan(results, db);
    return std::move(trace_);
  }

 private:
  void prepareContext(const Database& db) {
    context_.path = db.path();  // a PyTorch trace is read from the file it was imported into
    context_.options = &options_;
    context_.strings = &strings_;
    for (size_t kind = 0; kind < context_.memcpyNames.size(); ++kind)
      context_.memcpyNames[kind] = strings_.intern(nsys_enum::memcpyOperationName(static_cast<int64_t>(kind)));
    context_.unknownMemcpyName = strings_.intern(nsys_enum::memcpyOperationName(int64_t{-1}));
    context_.memsetName = strings_.intern(nsys_enum::kMemsetOperationName);
    context_.hasMemcpy = db.hasTable(table::kMemcpy);
    context_.hasMemset = db.hasTable(table::kMemset);
    context_.nvtxHasColor = db.hasTable(table::kNvtx) && hasColumn(db, table::kNvtx, "color");
    context_.kernelHasDemangledName = db.hasTable(table::kKernel) && hasColumn(db, table::kKernel, "demangledName");
    int64_t total = 0;
    for (std::string_view name : eventTables())
      if (db.hasTable(name)) total = saturatingAdd(total, db.maxRowId(name));
    context_.rowsTotal = std::max<int64_t>(total, 1);
  }

  // A table scan and what it costs: about the values it reads (rows times columns). A double, since a
  // hostile file's rowids may reach the int64 limit.
  struct ScanJob {
    ScanResult (*scan)(ScanContext&);
    double cost;
  };

  std::vector<ScanJob> plannedScans(const Database& db) const {
    auto rows = [&db](std::string_view table) {
      return db.hasTable(table) ? static_cast<double>(db.maxRowId(table)) : 0.0;
    };
    std::vector<ScanJob> jobs;
    // The integrity check reads every page of the file: count it as every table's rows, several times over.
    if (options_.checkIntegrity) jobs.push_back({scanIntegrity, 8.0 * static_cast<double>(context_.rowsTotal)});
    if (db.hasTable(table::kRuntime)) jobs.push_back({scanCudaApi, 6 * rows(table::kRuntime)});
    if (db.hasTable(table::kKernel)) jobs.push_back({scanKernels, 10 * rows(table::kKernel)});
    if (context_.hasMemcpy || context_.hasMemset)
      jobs.push_back({scanMemory, 9 * (rows(table::kMemcpy) + rows(table::kMemset))});
    if (db.hasTable(table::kNvtx)) jobs.push_back({scanNvtx, 9 * rows(table::kNvtx)});
    if (db.hasTable(table::kOsrt)) jobs.push_back({scanOsRuntime, 5 * rows(table::kOsrt)});
    return jobs;
  }

  // The table scans, each on its own connection, on as many threads as there are cores: each thread takes
  // the costliest scan left, so that the longest runs alone rather than sharing a core with the small ones.
  // The first error stops the others.
  std::vector<ScanResult> runScans(const Database& db) {
    std::vector<ScanJob> jobs = plannedScans(db);
    std::vector<size_t> order(jobs.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return jobs[a].cost > jobs[b].cost; });

    std::atomic<bool> abort{false};
    LoadOptions scanOptions = options_;
    const std::atomic<bool>* userCancel = options_.cancel;
    scanOptions.cancel = &abort;
    context_.options = &scanOptions;
    std::vector<std::optional<ScanResult>> done(jobs.size());
    std::vector<std::exception_ptr> errors(jobs.size());
    std::atomic<size_t> next{0};
    auto work = [&] {
      // Every scan runs, even after another failed (abort cancels it within a few thousand rows): which
      // error is reported must not depend on which scan a thread happened to take first.
      for (size_t taken; (taken = next.fetch_add(1)) < order.size();) {
        size_t job = order[taken];
        try {
          done[job] = jobs[job].scan(context_);
        } catch (...) {
          errors[job] = std::current_exception();
          abort = true;
        }
      }
    };
    size_t threads = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, std::max<size_t>(jobs.size(), 1));
    std::vector<std::future<void>> workers;
    for (size_t t = 0; t < threads; ++t) workers.push_back(std::async(std::launch::async, work));
    // Forward the user's cancel into the scans while they run.
    while (userCancel && !std::all_of(workers.begin(), workers.end(), [](auto& f) {
             return f.wait_for(std::chrono::milliseconds(20)) == std::future_status::ready;
           })) {
      if (userCancel->load()) abort = true;
    }
    for (auto& worker : workers) worker.get();
    context_.options = &options_;
    if (userCancel && userCancel->load()) throw LoadCancelled();
    return collectResults(done, errors);
  }

  // The scans' results in plan order, or the first real error (LoadCancelled from `abort` only echoes it).
  static std::vector<ScanResult> collectResults(std::vector<std::optional<ScanResult>>& done,
                                                const std::vector<std::exception_ptr>& errors) {
    for (const auto& error : errors) {
      if (!error) continue;
      try {
        std::rethrow_exception(error);
      } catch (const LoadCancelled&) {
      }
    }
    if (std::any_of(errors.begin(), errors.end(), [](const auto& error) { return bool(error); })) throw LoadCancelled();
    std::vector<ScanResult> results;
    for (auto& result : done) results.push_back(std::move(*result));
    return results;
  }

  // Moves every scan's tracks into the trace, interning NVTX text met inline.
  void collectTracks(std::vector<ScanResult>& results) {
    for (auto& result : results) {
      std::vector<StringId> remap;
      for (const auto& text : result.localStrings) remap.push_back(strings_.intern(text));
      for (auto& [id, name] : result.nvtxDomains) domainNames_[id] = name;
      for (auto& track : result.tracks) {
        if (isNsysPythonSamplingTrack(track)) continue;
        if (!remap.empty()) remapLocalNames(track, remap);
        trace_->tracks_.push_back(std::move(track));
      }
    }
  }

  // nsys's Python periodic sampling (--python-sampling) leaves a nameless mark per sample in an NVTX domain of its
  // own on the sampled thread: thousands of "0 ns" instants that say nothing the CPU samples (the samples row, with
  // their Python backtraces) do not say better. They are nsys's bookkeeping, not the program's NVTX: no track.
  bool isNsysPythonSamplingTrack(const Track& track) const {
    if (track.kind != TrackKind::Nvtx || track.nvtxDomain == 0) return false;
    auto it = domainNames_.find(track.nvtxDomain);
    return it != domainNames_.end() && it->second == kNsysPythonSamplingDomain;
  }

  static void remapLocalNames(Track& track, const std::vector<StringId>& remap) {
    for (auto& lane : track.lanes) {
      for (auto& name : lane.name) {
        if (name & kLocalStringBit) name = remap[name & ~kLocalStringBit];
      }
    }
  }

  void orderTracksAndBuildHierarchy(const Database& db);
  void finishCountsAndSpan(const std::vector<ScanResult>& results, const Database& db);
  std::string trackLabel(const Track& track) const;

  std::string path_;
  LoadOptions options_;
  std::unique_ptr<Trace> trace_;
  StringTable strings_;
  ScanContext context_;
  std::map<int64_t, std::string> domainNames_;
};

std::string TraceLoader::trackLabel(const Track& track) const {
  if (track.kind != TrackKind::Nvtx || track.nvtxDomain == 0) return std::string(trackKindName(track.kind));
  auto it = domainNames_.find(track.nvtxDomain);
  std::string domain = it != domainNames_.end() ? it->second : "domain " + std::to_string(track.nvtxDomain);
  return "NVTX (" + domain + ")";
}

void TraceLoader::orderTracksAndBuildHierarchy(const Database& db) {
  auto& tracks = trace_->tracks_;
  // CPU tracks first, by process, main thread first, then kind; GPU tracks by device, process, context, stream.
  auto order = [](const Track& t) {
    bool mainThread = t.tid == t.pid;
    return std::make_tuple(t.isGpu(), t.isGpu() ? t.deviceId : 0u, t.pid, !mainThread, t.tid, t.contextId, t.streamId,
                           static_cast<int>(t.kind), t.nvtxDomain);
  };
  std::stable_sort(tracks.begin(), tracks.end(), [&](const Track& a, const Track& b) { return order(a) < order(b); });

  auto processNames = readProcessNames(db);
  auto threadNames = readThreadNames(db, strings_, trace_->strings_);
  trace_->devices_ = readDevices(db);
  const std::vector<RankRow> rankRows = readRankRows(db);
  for (uint32_t i = 0; i < tracks.size(); ++i) {
    auto& track = tracks[i];
    track.label = trackLabel(track);
    if (track.isGpu()) {
      DeviceInfo* device = nullptr;
      for (auto& d : trace_->devices_) device = d.id == track.deviceId ? &d : device;
      if (!device) {
        trace_->devices_.push_back({});
        device = &trace_->devices_.back();
        device->id = track.deviceId;
        device->name = "GPU " + std::to_string(track.deviceId);
      }
      auto& streams = device->streams;
      bool sameStream = !streams.empty() && streams.back().pid == track.pid &&
                        streams.back().contextId == track.contextId && streams.back().streamId == track.streamId;
      if (!sameStream) streams.push_back({track.pid, track.contextId, track.streamId, {}});
      streams.back().tracks.push_back(i);
      continue;
    }
    auto& processes = trace_->processes_;
    int64_t globalPid = global_id::processOf(track.globalTid);
    if (processes.empty() || processes.back().globalPid != globalPid) {
      auto name = processNames.find(globalPid);
      processes.push_back({globalPid, track.pid, name != processNames.end() ? name->second : "", {}, {}, {}});
      if (const RankRow* rank = rankOfGlobalId(rankRows, globalPid)) {
        processes.back().rank = rank->rank;
        processes.back().host = rank->hostName;
      }
    }
    auto& threads = processes.back().threads;
    if (threads.empty() || threads.back().globalTid != track.globalTid) {
      auto name = threadNames.find(track.globalTid);
      // nsys files put process-wide CUDA calls (module loading) on tid 0.
      std::string threadName = name != threadNames.end() ? name->second : track.tid == 0 ? "process-wide" : "";
      threads.push_back({track.globalTid, track.tid, threadName, {}});
    }
    threads.back().tracks.push_back(i);
  }
  std::sort(trace_->devices_.begin(), trace_->devices_.end(),
            [](const DeviceInfo& a, const DeviceInfo& b) { return a.id < b.id; });
}

void TraceLoader::finishCountsAndSpan(const std::vector<ScanResult>& results, const Database& db) {
  auto& counts = trace_->counts_;
  for (const auto& result : results) {
    counts.memcpys += result.memcpys;
    counts.memsets += result.memsets;
  }
  TimeNs first = std::numeric_limits<TimeNs>::max();
  TimeNs last = std::numeric_limits<TimeNs>::min();
  for (const auto& track : trace_->tracks_) {
    size_t events = track.eventCount();
    if (track.kind == TrackKind::CudaApi) counts.cudaApi += events;
    if (track.kind == TrackKind::Nvtx) counts.nvtx += events;
    if (track.kind == TrackKind::OsRuntime) counts.osrt += events;
    if (track.kind == TrackKind::GpuKernels) counts.kernels += events;
    if (events == 0) continue;
    first = std::min(first, track.first);
    last = std::max(last, track.last);
  }
  if (db.hasTable(table::kSync)) {
    auto stmt = db.prepare("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION");
    counts.syncs = stmt.step() ? static_cast<size_t>(stmt.int64(0)) : 0;
  }
  trace_->start_ = first <= last ? first : 0;
  trace_->end_ = first <= last ? last : 0;
}

std::unique_ptr<Trace> loadTrace(const std::string& path, const LoadOptions& options) {
  auto trace = TraceLoader(path, options).load();
#ifdef __GLIBC__
  // The scan threads' temporary buffers stay in glibc's per-thread arenas; hand them back.
  malloc_trim(0);
#endif
  return trace;
}

}  // namespace gpuscope
