#include "collector/daemon/trace_assembler.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <string_view>
#include <utility>

#include "collector/daemon/kernel_metrics_rows.h"
#include "collector/daemon/process_trace.h"
#include "collector/transport/osrt_functions.h"
#include "core/model/global_id.h"
#include "core/ranks/rank_variables.h"
#include "core/write/trace_writer.h"

namespace gpuscope {

using transport::RecordType;
using transport::RecordView;

namespace {

std::string threadNameFromProc(uint32_t pid, uint32_t tid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid) + "/comm");
  std::string name;
  if (!std::getline(file, name)) return {};
  return name;
}

}  // namespace

TraceAssembler::TraceAssembler(TraceWriter& writer, CaptureWindow window, bool threaded) : threaded_(threaded) {
  openWindow(writer, window);
}

TraceAssembler::TraceAssembler(bool threaded) : threaded_(threaded) {}

void TraceAssembler::openWindow(TraceWriter& writer, CaptureWindow window) {
  writer_ = &writer;
  rows_ = std::make_unique<RowPipeline>(writer, threaded_);
  window_ = window;
  RecordCounts totals = counts_;
  counts_ = RecordCounts{};
  counts_.records = totals.records;
  kernelMetrics_.clear();
  osrtBacktraces_.clear();
  // Domains named before the window: the file names them at its start.
  for (NvtxDomainRow row : domainRows_) {
    row.start = 0;
    rows_->add(row);
  }
}

void TraceAssembler::setWindowEnd(int64_t end) { window_.end = end; }

void TraceAssembler::closeWindow(bool writeOpen) {
  if (!rows_) return;
  if (writeOpen)
    for (auto& [key, process] : processes_) writeOpenRanges(*process, window_.end);
  writeTables();
  rows_.reset();
  writer_ = nullptr;
}

TraceAssembler::~TraceAssembler() = default;

ProcessTrace& TraceAssembler::openProcess(uint32_t pid, uint32_t ppid) {
  auto process = std::make_unique<ProcessTrace>();
  process->key = nextProcessKey_++;
  process->pid = pid;
  process->ppid = ppid;
  process->globalPid = globalPidOf(pid);
  ProcessTrace& result = *process;
  processes_.emplace(result.key, std::move(process));
  return result;
}

bool TraceAssembler::inWindow(int64_t start) {
  if (rows_ && start >= window_.begin && start <= window_.end) return true;
  ++counts_.outsideWindow;
  return false;
}

void TraceAssembler::nameThread(int64_t globalTid, std::string_view name, bool fromNvtx) {
  ThreadName& entry = threadNames_[globalTid];
  if (entry.fromNvtx && !fromNvtx) return;
  entry.name = std::string(name);
  entry.fromNvtx = fromNvtx;
}

void TraceAssembler::noteThread(ProcessTrace& process, uint32_t tid) {
  if (!process.knownThreads.insert(tid).second) return;
  int64_t globalTid = globalTidOf(process.pid, tid);
  if (threadNames_.count(globalTid)) return;
  // Threads seen only through CUDA records never named themselves: ask the system while they live.
  std::string name = threadNameFromProc(process.pid, tid);
  if (name.empty() && tid == process.pid && processNames_.count(process.pid)) name = processNames_[process.pid];
  if (!name.empty()) nameThread(globalTid, name, false);
}

void TraceAssembler::noteStream(uint32_t pid, uint32_t contextId, uint32_t streamId) {
  streams_.try_emplace(StreamKey{pid, contextId, streamId});
}

std::pair<int64_t, std::string_view> TraceAssembler::globalDomain(std::string_view name) {
  auto found = domains_.find(name);
  if (found == domains_.end()) {
    int64_t id = static_cast<int64_t>(domains_.size()) + 1;
    found = domains_.emplace(std::string(name), id).first;
  }
  return {found->second, found->first};
}

void TraceAssembler::add(ProcessTrace& process, const RecordView& record) {
  ++counts_.records;
  switch (record.type) {
    case RecordType::OsRuntime:
      addOsRuntime(process, record);
      return;
    case RecordType::NvtxPush:
    case RecordType::NvtxPop:
    case RecordType::NvtxMark:
    case RecordType::NvtxRangeStart:
    case RecordType::NvtxRangeEnd:
      addNvtx(process, record);
      return;
    case RecordType::CudaApi:
    case RecordType::Kernel:
    case RecordType::Memcpy:
    case RecordType::Memset:
    case RecordType::Sync:
    case RecordType::Gpu:
    case RecordType::Context:
    case RecordType::Stream:
      addCuda(process, record);
      return;
    case RecordType::Process:
    case RecordType::ThreadName:
    case RecordType::String:
    case RecordType::NvtxDomain:
    case RecordType::NvtxString:
    case RecordType::NvtxCategory:
    case RecordType::Dropped:
    case RecordType::Diagnostic:
      addDefinition(process, record);
      return;
    case RecordType::Rank:
      if (!addRank(process, record)) break;
      return;
    case RecordType::KernelMetrics:
      addKernelMetrics(process, record);
      return;
    case RecordType::GpuMetricSample:
      if (!addGpuMetricSample(record)) break;
      return;
    case RecordType::MemoryUsage:
      if (!addMemoryUsage(process, record)) break;
      return;
    case RecordType::GpuMetricsState:
      if (!addGpuMetricsState(process, record)) break;
      return;
    case RecordType::Padding:
    case RecordType::Count:
      return;
  }
  ++counts_.malformed;
}

void TraceAssembler::addOsRuntime(ProcessTrace& process, const RecordView& record) {
  transport::OsRuntimeBody body{};
  size_t chainBytes = record.bodyBytes >= sizeof body ? record.bodyBytes - sizeof body : 0;
  if (!readBody(record, body) || chainBytes % sizeof(uint64_t) != 0 ||
      chainBytes > transport::kMaxOsrtBacktraceFrames * sizeof(uint64_t)) {
    ++counts_.malformed;
    return;
  }
  process.saw(body.end);
  if (!inWindow(body.start)) return;
  OsRuntimeRow row;
  row.start = traceTime(body.start);
  row.end = traceTime(body.end);
  row.globalTid = globalTidOf(process.pid, record.tid);
  row.name = transport::osrtFunctionName(record.aux);
  if (row.name.empty()) row.name = "[Unknown]";
  row.returnValue = body.returnValue;
  if (chainBytes > 0) {
    OsrtBacktrace backtrace{process.pid, body.start, std::vector<uint64_t>(chainBytes / sizeof(uint64_t))};
    std::memcpy(backtrace.frames.data(), record.body + sizeof body, chainBytes);
    osrtBacktraces_.push_back(std::move(backtrace));
    row.callchainId = static_cast<int64_t>(osrtBacktraces_.size());
    ++counts_.osrtBacktraces;
  }
  rows_->add(row);
  ++counts_.osrt;
}

void TraceAssembler::addKernelMetrics(ProcessTrace& process, const RecordView& record) {
  transport::KernelMetricsBody body{};
  if (!readBody(record, body)) {
    ++counts_.malformed;
    return;
  }
  std::string_view name = textAfter(record, sizeof body, body.nameLength);
  std::string_view counters = textAfter(record, sizeof body + body.nameLength, body.countersLength);
  KernelMetrics row = recordedKernelMetrics(transport::decodeCounters(counters));
  row.globalPid = process.globalPid;
  row.correlationId = body.correlationId;
  row.kernelName = std::string(name);
  kernelMetrics_.push_back(std::move(row));
  ++counts_.profiledKernels;
  if (body.profilingNs > 0) counts_.profilingNs += body.profilingNs;
}

void TraceAssembler::addDefinition(ProcessTrace& process, const RecordView& record) {
  switch (record.type) {
    case RecordType::Process: {
      transport::ProcessBody body{};
      if (!readBody(record, body)) break;
      processNames_[process.pid] = std::string(textAfter(record, sizeof body, body.nameLength));
      return;
    }
    case RecordType::ThreadName: {
      transport::ThreadNameBody body{};
      if (!readBody(record, body)) break;
      process.knownThreads.insert(record.tid);
      nameThread(globalTidOf(process.pid, record.tid), textAfter(record, sizeof body, body.nameLength),
                 body.source == static_cast<uint32_t>(transport::ThreadNameSource::Nvtx));
      return;
    }
    case RecordType::String: {
      transport::StringBody body{};
      if (!readBody(record, body)) break;
      process.strings[body.id] = std::string(textAfter(record, sizeof body, body.length));
      return;
    }
    case RecordType::NvtxDomain: {
      transport::NvtxDomainBody body{};
      if (!readBody(record, body)) break;
      auto [id, name] = globalDomain(textAfter(record, sizeof body, body.nameLength));
      process.domains[body.domain] = id;
      NvtxDomainRow row;
      row.start = traceTime(body.time);
      row.globalTid = globalTidOf(process.pid, record.tid);
      row.domainId = id;
      row.name = name;
      domainRows_.push_back(row);
      if (rows_) rows_->add(row);
      return;
    }
    case RecordType::NvtxString: {
      transport::NvtxStringBody body{};
      if (!readBody(record, body)) break;
      process.nvtxStrings[body.id] = std::string(textAfter(record, sizeof body, body.length));
      return;
    }
    case RecordType::NvtxCategory: {
      transport::NvtxCategoryBody body{};
      if (!readBody(record, body)) break;
      // NVTX_EVENTS keeps the category id of each event; the names have no column of their own.
      return;
    }
    case RecordType::Dropped: {
      transport::DroppedBody body{};
      if (!readBody(record, body)) break;
      counts_.cuptiDropped += body.count;
      return;
    }
    case RecordType::Diagnostic: {
      transport::DiagnosticBody body{};
      if (!readBody(record, body)) break;
      diagnostics_.push_back({process.pid, static_cast<transport::DiagnosticLevel>(body.level),
                              std::string(textAfter(record, sizeof body, body.length))});
      return;
    }
    default:
      return;
  }
  ++counts_.malformed;
}

void TraceAssembler::addNvtx(ProcessTrace& process, const RecordView& record) {
  auto openRange = [&](const transport::NvtxEventBody& body) {
    ProcessTrace::OpenRange range;
    range.start = body.time;
    range.tid = record.tid;
    range.domain = process.domain(body.domain);
    if (body.text == static_cast<uint8_t>(transport::NvtxText::Registered)) {
      auto found = process.nvtxStrings.find(body.registeredText);
      range.text = found != process.nvtxStrings.end() ? found->second : "[unregistered string]";
      range.registered = true;
    } else if (body.text == static_cast<uint8_t>(transport::NvtxText::Inline)) {
      range.text = std::string(textAfter(record, sizeof body, body.textLength));
    }
    if (body.hasColor) range.color = body.color;
    if (body.category) range.category = body.category;
    return range;
  };
  auto writeRange = [&](const ProcessTrace::OpenRange& range, int64_t end, uint32_t endTid, RecordType kind) {
    NvtxRow row;
    row.start = traceTime(range.start);
    row.end = traceTime(end);
    row.globalTid = globalTidOf(process.pid, range.tid);
    if (endTid != range.tid) row.endGlobalTid = globalTidOf(process.pid, endTid);
    row.registeredText = range.registered;
    row.domainId = range.domain;
    row.color = range.color;
    row.category = range.category;
    if (rangeHook_ && kind != RecordType::NvtxMark) rangeHook_(range.text, range.start, end);
    if (kind == RecordType::NvtxPush) {
      rows_->addNvtx(NvtxRowKind::PushPop, row, range.text);
    } else if (kind == RecordType::NvtxRangeStart) {
      row.rangeId = nextRangeId_++;
      rows_->addNvtx(NvtxRowKind::StartEnd, row, range.text);
    } else {
      rows_->addNvtx(NvtxRowKind::Mark, row, range.text);
    }
    ++counts_.nvtx;
  };

  switch (record.type) {
    case RecordType::NvtxPush: {
      transport::NvtxEventBody body{};
      if (!readBody(record, body)) break;
      process.saw(body.time);
      process.stacks[{record.tid, process.domain(body.domain)}].push_back(openRange(body));
      return;
    }
    case RecordType::NvtxPop: {
      transport::NvtxPopBody body{};
      if (!readBody(record, body)) break;
      process.saw(body.time);
      auto stack = process.stacks.find({record.tid, process.domain(body.domain)});
      if (stack == process.stacks.end() || stack->second.empty()) {
        ++counts_.unmatched;
        return;
      }
      ProcessTrace::OpenRange range = std::move(stack->second.back());
      stack->second.pop_back();
      if (inWindow(range.start)) writeRange(range, body.time, record.tid, RecordType::NvtxPush);
      return;
    }
    case RecordType::NvtxMark: {
      transport::NvtxEventBody body{};
      if (!readBody(record, body)) break;
      process.saw(body.time);
      if (inWindow(body.time)) writeRange(openRange(body), body.time, record.tid, RecordType::NvtxMark);
      return;
    }
    case RecordType::NvtxRangeStart: {
      transport::NvtxEventBody body{};
      if (!readBody(record, body)) break;
      process.saw(body.time);
      ProcessTrace::OpenRange range = openRange(body);
      auto ended = process.endedRanges.find(body.rangeId);
      if (ended != process.endedRanges.end()) {
        // The end was drained first (it was written on another thread's ring).
        if (inWindow(range.start))
          writeRange(range, ended->second.first, ended->second.second, RecordType::NvtxRangeStart);
        process.endedRanges.erase(ended);
      } else {
        process.startedRanges[body.rangeId] = std::move(range);
      }
      return;
    }
    case RecordType::NvtxRangeEnd: {
      transport::NvtxRangeEndBody body{};
      if (!readBody(record, body)) break;
      process.saw(body.time);
      auto started = process.startedRanges.find(body.rangeId);
      if (started != process.startedRanges.end()) {
        if (inWindow(started->second.start))
          writeRange(started->second, body.time, record.tid, RecordType::NvtxRangeStart);
        process.startedRanges.erase(started);
      } else {
        process.endedRanges[body.rangeId] = {body.time, record.tid};
      }
      return;
    }
    default:
      return;
  }
  ++counts_.malformed;
}

// Writes the ranges of PROCESS still open, those that began inside the window, as ending at END.
void TraceAssembler::writeOpenRanges(ProcessTrace& process, int64_t end) {
  auto write = [&](const ProcessTrace::OpenRange& range, NvtxRowKind kind) {
    if (!inWindow(range.start)) return;
    NvtxRow row;
    row.start = traceTime(range.start);
    row.end = traceTime(std::max(end, range.start));
    row.globalTid = globalTidOf(process.pid, range.tid);
    row.registeredText = range.registered;
    row.domainId = range.domain;
    row.color = range.color;
    row.category = range.category;
    if (kind == NvtxRowKind::StartEnd) row.rangeId = nextRangeId_++;
    rows_->addNvtx(kind, row, range.text);
    ++counts_.nvtx;
  };
  for (auto& [key, stack] : process.stacks)
    for (const ProcessTrace::OpenRange& range : stack) write(range, NvtxRowKind::PushPop);
  for (auto& [id, range] : process.startedRanges) write(range, NvtxRowKind::StartEnd);
}

void TraceAssembler::closeProcess(ProcessTrace& process) {
  for (auto& [key, stack] : process.stacks) counts_.unendedRanges += stack.size();
  counts_.unendedRanges += process.startedRanges.size();
  writeOpenRanges(process, process.lastTime);
  counts_.unmatched += process.endedRanges.size();
  // Rows still queued may point at the process's name tables.
  if (rows_) rows_->flush();
  processes_.erase(process.key);
}

void TraceAssembler::finish() {
  if (finished_) return;
  while (!processes_.empty()) closeProcess(*processes_.begin()->second);
  if (rows_) writeTables();
  rows_.reset();
  writer_ = nullptr;
  finished_ = true;
}

void TraceAssembler::writeTables() {
  rows_->flush();
  finishGpuMetrics();
  for (auto& [id, gpu] : gpus_) {
    if (!gpu.name.empty()) gpu.row.name = gpu.name;
    if (!gpu.uuid.empty()) gpu.row.uuid = gpu.uuid;
    if (!gpu.busLocation.empty()) gpu.row.busLocation = gpu.busLocation;
    if (!gpu.chipName.empty()) gpu.row.chipName = gpu.chipName;
    writer_->addGpu(gpu.row);
  }
  for (const auto& [pid, name] : processNames_) writer_->addProcess({globalPidOf(pid), pid, name});
  for (const auto& [globalTid, name] : threadNames_) writer_->addThreadName({globalTid, name.name, 0});
  for (const auto& [key, info] : streams_) {
    CudaStreamRow row;
    row.streamId = key.streamId;
    row.hwId = kHardwareId;
    row.vmId = kVmId;
    row.processId = key.pid;
    row.contextId = key.contextId;
    row.priority = info.priority;
    row.flag = info.flag;
    writer_->addCudaStream(row);
  }
  counts_.processes = processNames_.size();
  counts_.threads = threadNames_.size();
}

bool TraceAssembler::addRank(ProcessTrace& process, const RecordView& record) {
  transport::RankBody body{};
  if (!readBody(record, body) || body.rank < 0) return false;
  RankRow row;
  row.rank = body.rank;
  if (body.localRank >= 0) row.localRank = body.localRank;
  if (body.worldSize >= 0) row.worldSize = body.worldSize;
  row.hostName = std::string(textAfter(record, sizeof body, body.hostLength));
  row.hwFirst = row.hwLast = global_id::hw(process.globalPid);
  row.pid = process.pid;
  const auto& variables = rank_variables::kRank;
  row.rankSource = std::string("environment ") +
                   (body.rankVariable < std::size(variables) ? variables[body.rankVariable] : "variable");
  ranks_[process.pid] = std::move(row);
  return true;
}

std::vector<RankRow> TraceAssembler::rankRows() const {
  std::vector<RankRow> rows;
  for (const auto& [pid, row] : ranks_) rows.push_back(row);
  return rows;
}

std::vector<Diagnostic> TraceAssembler::takeDiagnostics() { return std::exchange(diagnostics_, {}); }

std::vector<uint32_t> TraceAssembler::pids() const {
  std::vector<uint32_t> result;
  for (const auto& [pid, name] : processNames_) result.push_back(pid);
  return result;
}

}  // namespace gpuscope
