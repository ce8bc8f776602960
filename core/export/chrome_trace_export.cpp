#include "core/export/chrome_trace_export.h"

#include <charconv>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "core/export/event_category.h"
#include "core/export/export_groups.h"
#include "core/export/gpu_annotations.h"
#include "core/export/gpu_work_args.h"
#include "core/report/report_format.h"

namespace gpuscope {
namespace {

// Rows made for overlapping ranges get thread ids above every real one: the real tid plus LAYER << 32.
uint64_t layerTid(uint32_t tid, size_t layer) { return uint64_t{tid} | (uint64_t{layer} << 32); }

class ChromeTraceWriter {
 public:
  ChromeTraceWriter(const Trace& trace, const ExportFacts& facts, ExportOutput& out)
      : trace_(trace),
        facts_(facts),
        out_(out),
        categories_(trace, facts),
        gpuArgs_(trace.database()),
        escaped_(trace.stringCount()),
        annotations_(gpuAnnotations(trace, categories_)) {
    for (size_t i = 0; i < trace.processes().size(); ++i) processOrdinal_[trace.processes()[i].pid] = i;
    // Trace times count from the session start, which becomes baseTimeNanoseconds; without one the
    // file's own clock stays as it is, from 0.
    base_ = facts.sessionStartUtcNs.value_or(0);
  }

  ExportSummary run() {
    writeHeader();
    for (const auto& group : exportGroups(trace_)) writeGroup(group);
    writeProcessNames();
    put("\n  ],\n  \"traceName\": ");
    put(escapedText(trace_.path()));
    put("\n}\n");
    flush();
    summary_.bytesWritten = out_.bytesWritten();
    return summary_;
  }

 private:
  void put(std::string_view text) {
    chunk_.append(text);
    if (chunk_.size() > (1 << 20)) flush();
  }
  void putNumber(int64_t value) {
    char text[24];
    auto [end, ec] = std::to_chars(text, text + sizeof(text), value);
    chunk_.append(text, end);
  }
  void putUnsigned(uint64_t value) {
    char text[24];
    auto [end, ec] = std::to_chars(text, text + sizeof(text), value);
    chunk_.append(text, end);
  }
  // NS nanoseconds as microseconds with exactly three decimals.
  void putMicros(int64_t ns) {
    if (ns < 0) {
      chunk_.push_back('-');
      ns = -ns;
    }
    putNumber(ns / 1000);
    char fraction[4] = {'.', static_cast<char>('0' + ns / 100 % 10), static_cast<char>('0' + ns / 10 % 10),
                        static_cast<char>('0' + ns % 10)};
    chunk_.append(fraction, 4);
  }
  void flush() {
    out_.write(chunk_);
    chunk_.clear();
  }
  void beginEvent() {
    put(firstEvent_ ? "\n  " : ",\n  ");
    firstEvent_ = false;
  }

  static std::string escapedText(const std::string& text) { return jsonText(nlohmann::json(text)); }
  const std::string& escaped(StringId id) {
    auto& text = escaped_[id];
    if (text.empty()) text = escapedText(trace_.string(id));
    return text;
  }

  void writeHeader() {
    put("{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [");
    bool first = true;
    for (const auto& device : trace_.devices()) {
      put(first ? "\n    " : ",\n    ");
      first = false;
      writeDeviceProperties(device);
    }
    put("\n  ],\n  \"distributedInfo\": {\"rank\": ");
    putNumber(facts_.rank);
    put("},\n  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": ");
    putNumber(base_);
    put(",\n  \"traceEvents\": [");
  }

  void writeDeviceProperties(const DeviceInfo& d) {
    put("{\"id\": ");
    putNumber(d.id);
    put(", \"name\": ");
    put(escapedText(d.name));
    auto field = [&](std::string_view key, int64_t value) {
      if (value <= 0) return;  // the file does not say
      put(", \"");
      put(key);
      put("\": ");
      putNumber(value);
    };
    field("totalGlobalMem", d.totalMemory);
    if (d.computeMajor > 0) {  // a compute capability of 9.0 has a minor version of 0
      put(", \"computeMajor\": ");
      putNumber(d.computeMajor);
      put(", \"computeMinor\": ");
      putNumber(d.computeMinor);
    }
    field("maxThreadsPerBlock", d.maxThreadsPerBlock);
    field("maxThreadsPerMultiprocessor", int64_t{d.maxWarpsPerSm} * d.threadsPerWarp);
    field("regsPerBlock", d.maxRegistersPerBlock);
    field("warpSize", d.threadsPerWarp);
    field("sharedMemPerBlock", d.maxShmemPerBlock);
    field("numSms", d.smCount);
    field("regsPerMultiprocessor", d.maxRegistersPerSm);
    field("sharedMemPerBlockOptin", d.maxShmemPerBlockOptin);
    field("sharedMemPerMultiprocessor", d.maxShmemPerSm);
    put("}");
  }

  void writeGroup(const ExportGroup& group) {
    auto layers = groupLayers(trace_, group, annotations_);
    if (layers.size() > 1) summary_.overlapRows += layers.size() - 1;
    for (size_t layer = 0; layer < layers.size(); ++layer) {
      uint64_t tid = layerTid(group.tid, layer);
      std::string name = group.name + (layer ? " overlapping " + std::to_string(layer) : "");
      writeMetadata("thread_name", group.pid, tid, "name", escapedText(name));
      writeMetadata("thread_sort_index", group.pid, tid, "sort_index", std::to_string(tid));
      for (const auto& slice : layers[layer]) writeSlice(group, tid, slice);
    }
  }

  void writeMetadata(std::string_view what, uint32_t pid, uint64_t tid, std::string_view key,
                     std::string_view jsonValue) {
    beginEvent();
    put("{\"name\": \"");
    put(what);
    put("\", \"ph\": \"M\", \"ts\": 0, \"pid\": ");
    putUnsigned(pid);
    put(", \"tid\": ");
    putUnsigned(tid);
    put(", \"args\": {\"");
    put(key);
    put("\": ");
    put(jsonValue);
    put("}}");
  }

  void writeSlice(const ExportGroup& group, uint64_t tid, const LayoutSlice& slice) {
    if (isGpuAnnotation(slice.ref)) return writeGpuAnnotation(group, tid, slice);
    const auto& track = trace_.track(slice.ref.track);
    const auto& lane = trace_.lane(slice.ref);
    std::string_view category = categories_.of(slice.ref);
    uint32_t correlation = lane.correlation[slice.ref.index];
    beginEvent();
    put("{\"ph\": \"X\", \"cat\": \"");
    put(category);
    put("\", \"name\": ");
    put(escaped(track.isGpu() ? trace_.longNameId(slice.ref) : lane.name[slice.ref.index]));
    put(", \"pid\": ");
    putUnsigned(group.pid);
    put(", \"tid\": ");
    putUnsigned(tid);
    put(", \"ts\": ");
    putMicros(slice.start);
    put(", \"dur\": ");
    putMicros(slice.end - slice.start);
    if (track.isGpu())
      writeGpuArgs(track, slice, correlation);
    else if (track.kind == TrackKind::CudaApi && correlation)
      writeApiArgs(correlation);
    put("}");
    ++summary_.slices;
    if (track.kind == TrackKind::GpuKernels) ++summary_.kernels;
    writeFlow(group, tid, slice, correlation);
  }

  void writeGpuAnnotation(const ExportGroup& group, uint64_t tid, const LayoutSlice& slice) {
    const auto& range = annotations_[slice.ref.index].range;
    beginEvent();
    put("{\"ph\": \"X\", \"cat\": \"gpu_user_annotation\", \"name\": ");
    put(escaped(trace_.lane(range).name[range.index]));
    put(", \"pid\": ");
    putUnsigned(group.pid);
    put(", \"tid\": ");
    putUnsigned(tid);
    put(", \"ts\": ");
    putMicros(slice.start);
    put(", \"dur\": ");
    putMicros(slice.end - slice.start);
    put("}");
    ++summary_.slices;
    ++summary_.gpuAnnotations;
  }

  void writeApiArgs(uint32_t correlation) {
    put(", \"args\": {\"External id\": ");
    putUnsigned(correlation);
    put(", \"correlation\": ");
    putUnsigned(correlation);
    put("}");
  }

  void writeGpuArgs(const Track& track, const LayoutSlice& slice, uint32_t correlation) {
    put(", \"args\": {\"External id\": ");
    putUnsigned(correlation);
    put(", \"device\": ");
    putUnsigned(track.deviceId);
    put(", \"context\": ");
    putUnsigned(track.contextId);
    put(", \"stream\": ");
    putUnsigned(track.streamId);
    put(", \"correlation\": ");
    putUnsigned(correlation);
    uint32_t row = trace_.lane(slice.ref).row[slice.ref.index];
    if (track.kind == TrackKind::GpuKernels) {
      if (auto args = gpuArgs_.kernel(row)) writeKernelArgs(*args);
    } else {
      bool memset = trace_.lane(slice.ref).style[slice.ref.index] == kMemsetStyle;
      if (auto bytes = gpuArgs_.bytes(memset, row)) writeBytes(*bytes, slice.end - slice.start);
    }
    put("}");
  }

  void writeKernelArgs(const KernelArgs& args) {
    put(", \"registers per thread\": ");
    putNumber(args.registersPerThread);
    put(", \"shared memory\": ");
    putNumber(args.sharedMemory);
    auto triple = [&](std::string_view key, const std::array<int64_t, 3>& values) {
      put(", \"");
      put(key);
      put("\": [");
      for (size_t i = 0; i < 3; ++i) {
        if (i) put(", ");
        putNumber(values[i]);
      }
      put("]");
    };
    triple("grid", args.grid);
    triple("block", args.block);
  }

  // Bytes, and bytes per nanosecond, which is GB/s, as Kineto writes them.
  void writeBytes(int64_t bytes, TimeNs duration) {
    put(", \"bytes\": ");
    putNumber(bytes);
    if (duration <= 0) return;
    char text[32];
    auto [end, ec] = std::to_chars(text, text + sizeof(text), static_cast<double>(bytes) / duration);
    put(", \"memory bandwidth (GB/s)\": ");
    put(std::string_view(text, static_cast<size_t>(end - text)));
  }

  // "s" on a CUDA call that launched GPU work, "f" (binding to the enclosing slice) on each piece of
  // that work, sharing an id: the correlation id, offset by the launching process' ordinal so that
  // two processes' correlation ids never meet.
  void writeFlow(const ExportGroup& group, uint64_t tid, const LayoutSlice& slice, uint32_t correlation) {
    const auto& track = trace_.track(slice.ref.track);
    if (!correlation) return;
    uint32_t launchingPid = 0;
    if (track.isGpu()) {
      auto call = trace_.launchingCall(slice.ref);
      if (!call) return;
      launchingPid = trace_.track(call->track).pid;
      ++summary_.flows;
    } else {
      if (track.kind != TrackKind::CudaApi || !launchedAny(slice.ref)) return;
      launchingPid = track.pid;
    }
    beginEvent();
    put(track.isGpu() ? "{\"ph\": \"f\", \"bp\": \"e\", \"id\": " : "{\"ph\": \"s\", \"id\": ");
    putUnsigned((uint64_t{processOrdinal_[launchingPid]} << 32) | correlation);
    put(", \"pid\": ");
    putUnsigned(group.pid);
    put(", \"tid\": ");
    putUnsigned(tid);
    put(", \"ts\": ");
    putMicros(slice.start);
    put(", \"cat\": \"ac2g\", \"name\": \"ac2g\"}");
  }

  // Whether CALL is the launching call of some GPU work (two calls may share a correlation id).
  bool launchedAny(EventRef call) const {
    for (const auto& work : trace_.launchedWork(call))
      if (trace_.launchingCall(work) == call) return true;
    return false;
  }

  void writeProcessNames() {
    for (const auto& process : trace_.processes()) {
      std::string name = process.name.empty() ? "process " + std::to_string(process.pid) : process.name;
      writeMetadata("process_name", process.pid, 0, "name", escapedText(name));
      writeMetadata("process_labels", process.pid, 0, "labels", "\"CPU\"");
      writeMetadata("process_sort_index", process.pid, 0, "sort_index", std::to_string(process.pid));
    }
    for (const auto& device : trace_.devices()) {
      if (device.streams.empty()) continue;
      std::string label = "GPU " + std::to_string(device.id);
      writeMetadata("process_name", device.id, 0, "name",
                    escapedText(label + (device.name.empty() || device.name == label ? "" : " (" + device.name + ")")));
      writeMetadata("process_labels", device.id, 0, "labels", escapedText(label));
      writeMetadata("process_sort_index", device.id, 0, "sort_index", std::to_string(5000000 + device.id));
    }
  }

  const Trace& trace_;
  const ExportFacts& facts_;
  ExportOutput& out_;
  EventCategories categories_;
  GpuWorkArgs gpuArgs_;
  std::vector<std::string> escaped_;  // JSON text of each trace string, made on first use
  std::vector<GpuAnnotation> annotations_;
  std::unordered_map<uint32_t, uint32_t> processOrdinal_;
  int64_t base_ = 0;
  std::string chunk_;
  bool firstEvent_ = true;
  ExportSummary summary_;
};

}  // namespace

ExportSummary writeChromeTrace(const Trace& trace, const ExportFacts& facts, ExportOutput& out) {
  return ChromeTraceWriter(trace, facts, out).run();
}

}  // namespace gpuscope
