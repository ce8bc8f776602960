#include "core/samples/sample_rows.h"

#include "core/model/global_id.h"
#include "core/schema/nsys_enums.h"
#include "core/schema/table_names.h"
#include "core/write/trace_writer.h"

namespace gpuscope {
namespace {

using Cell = TraceWriter::Cell;

// The columns of table::kSamplingCallchains and table::kOsrtCallchains that the recorder knows.
const std::vector<std::string_view> kFrameColumns = {"id",           "symbol",     "module",       "kernelMode",
                                                     "thumbCode",    "unresolved", "specialEntry", "originalIP",
                                                     "unwindMethod", "stackDepth"};

void addFrame(TraceWriter& writer, int frames, int64_t id, const NamedFrame& frame, int unwindMethod, size_t depth) {
  writer.addRow(frames, {id, std::string_view(frame.symbol), std::string_view(frame.module), int64_t{0}, int64_t{0},
                         int64_t{frame.unresolved ? 1 : 0}, int64_t{0}, static_cast<int64_t>(frame.ip),
                         int64_t{unwindMethod}, static_cast<int64_t>(depth)});
}

void writeSamples(TraceWriter& writer, const SampleRows& rows) {
  int events =
      writer.tableRows(table::kCompositeEvents, {"id", "start", "cpu", "threadState", "globalTid", "cpuCycles"});
  int frames = writer.tableRows(table::kSamplingCallchains, kFrameColumns);
  int64_t id = 0;
  for (const NamedSample& sample : rows.samples) {
    ++id;
    // A sample of cpu-clock is taken while the thread runs.
    writer.addRow(events, {id, int64_t{sample.start}, int64_t{sample.cpu}, int64_t{nsys_enum::kThreadStateRunning},
                           global_id::make(0, rows.vmId, sample.pid, sample.tid), int64_t{0}});
    const std::vector<NamedFrame>& stack = rows.stacks.at(sample.stack);
    for (size_t depth = 0; depth < stack.size(); ++depth) {
      int unwind = stack[depth].python ? nsys_enum::kUnwindUnknown : nsys_enum::kUnwindFramePointer;
      addFrame(writer, frames, id, stack[depth], unwind, depth);
    }
  }
}

// The recorder's backtraces come from libgcc's unwinder, which follows the .eh_frame tables.
void writeOsrtBacktraces(TraceWriter& writer, const SampleRows& rows) {
  int frames = writer.tableRows(table::kOsrtCallchains, kFrameColumns);
  for (size_t chain = 0; chain < rows.osrtBacktraces.size(); ++chain) {
    const std::vector<NamedFrame>& stack = rows.osrtBacktraces[chain];
    for (size_t depth = 0; depth < stack.size(); ++depth)
      addFrame(writer, frames, static_cast<int64_t>(chain + 1), stack[depth], nsys_enum::kUnwindDwarfEh, depth);
  }
}

void writeSwitches(TraceWriter& writer, const SampleRows& rows) {
  int switches =
      writer.tableRows(table::kSchedEvents, {"start", "cpu", "isSchedIn", "globalTid", "threadState", "threadBlock"});
  for (const SchedSwitch& change : rows.switches) {
    // Switched in: running. Switched out while runnable: preempted, still Running in the kernel's terms;
    // otherwise it blocked, which perf's switch records do not tell apart from sleeping (Interruptible).
    bool runnable = change.in || change.preempted;
    int state = runnable ? nsys_enum::kThreadStateRunning : nsys_enum::kThreadStateInterruptible;
    int block = change.in ? nsys_enum::kThreadBlockNonBlocked
                          : (change.preempted ? nsys_enum::kThreadBlockPreempted : nsys_enum::kThreadBlockUnknown);
    writer.addRow(switches, {int64_t{change.time}, int64_t{change.cpu}, int64_t{change.in ? 1 : 0},
                             global_id::make(0, rows.vmId, change.pid, change.tid), int64_t{state}, int64_t{block}});
  }
}

}  // namespace

void writeSampleTables(TraceWriter& writer, const SampleRows& rows) {
  if (rows.sampled) {
    writeSamples(writer, rows);
    writeSwitches(writer, rows);
  }
  if (!rows.osrtBacktraces.empty()) writeOsrtBacktraces(writer, rows);
}

}  // namespace gpuscope
