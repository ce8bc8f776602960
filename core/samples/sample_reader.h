#pragma once
// Reads the CPU samples of an nsys-schema trace (table::kCompositeEvents and table::kSamplingCallchains), as nsys
// writes them with --sample (nsys's default), restricted to threads and times.
#include <string>
#include <vector>

#include "core/samples/cpu_samples.h"
#include "core/samples/sample_filter.h"

namespace gpuscope {

class Database;

struct SampleRead {
  CpuSamples samples;
  // The tables the samples need that the file lacks (table::kCompositeEvents, table::kSamplingCallchains): without
  // the first there are no samples, without the second the samples have no stacks.
  std::vector<std::string> missingTables;
};

SampleRead readCpuSamples(const Database& db, const SampleFilter& filter = {});

}  // namespace gpuscope
