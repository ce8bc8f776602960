#pragma once
// The details of one CPU sample: when and where it was taken, the thread's state then, and its backtrace
// leaf first, as the details pane shows them for a sample picked on a thread-state row.
#include <cstdint>
#include <string>

#include "core/details/event_details.h"
#include "core/model/trace.h"
#include "core/samples/cpu_samples.h"

namespace gpuscope {

// Describes sample SAMPLE_INDEX of TRACE's HostActivity::samples(), taken on the thread GLOBAL_TID (as the
// timeline's rows or the sampling tables spell it: its vm field aside). Times are shown in BASE. A sample
// that does not exist, or that another thread took, gives a "No such sample" description; a database error
// a "Problem" section; neither throws.
EventDetails describeSample(const Trace& trace, int64_t globalTid, uint32_t sampleIndex,
                            TimeBase base = TimeBase::Session);

// Whether SAMPLE_INDEX names a sample of TRACE taken on the thread GLOBAL_TID.
bool isValidSample(const Trace& trace, int64_t globalTid, uint32_t sampleIndex);

// "pocketfft::exec — libpocketfft.so", "busy (train.py:17)", "0x7f6ac529cb84 — libc.so.6 [unresolved]":
// FRAME of SAMPLES as a backtrace line shows it.
std::string backtraceLine(const CpuSamples& samples, const SampleFrame& frame);

}  // namespace gpuscope
