#pragma once
// SampleRows: what a CPU-sampling recording holds once its addresses are named, ready to be written into a
// trace file as nsys writes it (table::kCompositeEvents, table::kSamplingCallchains, table::kSchedEvents and their
// ENUM_ tables), so that gpuscope's readers, `nsys stats` and SQL written for nsys exports all read it.
#include <cstdint>
#include <string>
#include <vector>

#include "core/model/trace_types.h"

namespace gpuscope {

class TraceWriter;

struct NamedFrame {
  std::string symbol;  // "hot_a", or "py::busy:/path/prog.py:17" for a Python frame (see frame_names.h)
  std::string module;  // the ELF file or the Python source file
  uint64_t ip = 0;     // the address sampled; 0 for a Python frame
  bool unresolved = false;
  bool python = false;
};

struct NamedSample {
  TimeNs start = 0;  // trace time
  uint32_t pid = 0;
  uint32_t tid = 0;
  int32_t cpu = -1;
  uint32_t stack = 0;  // index into SampleRows::stacks
};

// A thread taken off or put on a CPU (perf's PERF_RECORD_SWITCH).
struct SchedSwitch {
  TimeNs time = 0;
  uint32_t pid = 0;
  uint32_t tid = 0;
  int32_t cpu = -1;
  bool in = false;
  bool preempted = false;  // switched out while still runnable; otherwise it blocked (slept or waited)
};

struct SampleRows {
  // The vm field of the globalTid values written (global_id.h): that of the file's other tables, so that a
  // thread's samples and states join its API and OS-runtime rows (gpuscope's recorder uses 1, as nsys).
  uint32_t vmId = 0;
  std::vector<std::vector<NamedFrame>> stacks;  // each leaf first, each distinct stack once
  std::vector<NamedSample> samples;
  std::vector<SchedSwitch> switches;
  // False when no sampler ran: only the backtraces below are written, no empty sampling tables.
  bool sampled = true;
  // table::kOsrtCallchains: element i is the backtrace of the OSRT_API rows whose callchainId is i + 1, leaf first.
  std::vector<std::vector<NamedFrame>> osrtBacktraces;
};

// Writes ROWS through WRITER, before it finishes the file: the sampling tables when ROWS.sampled (even with no
// sample: the file then says sampling ran), table::kOsrtCallchains when there are backtraces. Strings go through the
// writer's StringIds. Throws TraceError when the file cannot be written.
void writeSampleTables(TraceWriter& writer, const SampleRows& rows);

}  // namespace gpuscope
