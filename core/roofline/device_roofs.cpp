#include "core/roofline/device_roofs.h"

#include <vector>

namespace gpuscope {
namespace {

// Per-SM, per-clock rates: FLOP/clk/SM as {FP64, FP32, FP16 (non-tensor), Tensor (dense FP16 inputs)}, then L1
// and L2 bytes/clk/SM. An FMA counts 2 FLOPs. Sources (NVIDIA architecture whitepapers unless stated):
//  - Volta GV100 (sm_70): 64 FP32 + 32 FP64 cores per SM, FP16 at twice FP32, 8 tensor cores x 64 FMA/clk.
//    L1/shared memory 128 B/clk/SM ("Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking",
//    Jia et al. 2018, measured 108.3 of 128). L2 2048 B/clk for the chip (A100 whitepaper's comparison) / 80 SMs.
//  - Turing TU10x (sm_75): 64 FP32 cores and 2 FP64 units per SM, FP16 at twice FP32, 8 tensor cores x 64
//    FMA/clk. Cache bandwidths: not published.
//  - Ampere GA100 (sm_80): 64 FP32 + 32 FP64 cores per SM, FP16 at 4x FP32 (78 vs 19.5 TFLOPS on A100),
//    4 tensor cores x 256 FP16 FMA/clk. L1/shared 128 B/clk/SM; L2 5120 B/clk for the chip / 108 SMs.
//  - Ampere GA10x (sm_86): 128 FP32 cores and 2 FP64 units per SM, FP16 at the FP32 rate, 4 tensor cores x
//    128 FP16 FMA/clk (FP16 accumulate, dense). Cache bandwidths: not published.
//  - Ada AD10x (sm_89): as GA10x per clock (RTX 4090: 82.6 TFLOPS FP32, 330 TFLOPS FP16 tensor with FP16
//    accumulate over 128 SMs at 2.52 GHz). Cache bandwidths: not published.
//  - Hopper GH100 (sm_90): 128 FP32 + 64 FP64 cores per SM, FP16 at twice FP32 (133.8 vs 66.9 TFLOPS on H100
//    SXM5), tensor cores at twice A100's rate per SM clock (989.4 dense FP16 TFLOPS = 132 SMs x 1.83 GHz x
//    4096). L1/shared 128 B/clk/SM as on Volta and Ampere (the Hopper tuning guide keeps the SM's data path).
//    L2: not published; left unknown rather than guessed.
// Ncu prints the same FP32/FP64 rates for this H100 in its roofline section: 16,896 FFMA and 8,448 DFMA
// thread instructions per cycle = 132 SMs x 128 and x 64 (tests/core/roofline checks ours against them).
constexpr std::array<ArchitectureRates, 6> kRates = {{
    {7, 0, "Volta", {64, 128, 256, 1024}, 128, 2048.0 / 80},
    {7, 5, "Turing", {4, 128, 256, 1024}, 0, 0},
    {8, 0, "Ampere", {64, 128, 512, 2048}, 128, 5120.0 / 108},
    {8, 6, "Ampere", {4, 256, 256, 1024}, 0, 0},
    {8, 9, "Ada", {4, 256, 256, 1024}, 0, 0},
    {9, 0, "Hopper", {128, 256, 512, 4096}, 128, 0},
}};

void markTheoretical(const auto& values, auto& sources) {
  for (size_t i = 0; i < values.size(); ++i) sources[i] = values[i] > 0 ? RoofSource::Theoretical : RoofSource::Unknown;
}

void appendNames(std::string& text, std::string_view label, const std::vector<std::string_view>& names) {
  if (names.empty()) return;
  if (!text.empty()) text += "; ";
  text += std::string(label) + ": ";
  for (size_t i = 0; i < names.size(); ++i) text += (i ? ", " : "") + std::string(names[i]);
}

// Why DEVICE's roofs cannot all be computed (see DeviceRoofs::unknownBecause); RATES: its architecture's.
std::string unknownBecause(const DeviceInfo& device, const ArchitectureRates* rates) {
  if (!rates && device.computeMajor <= 0) return "the file does not give the GPU's compute capability";
  if (!rates)
    return "sm_" + std::to_string(device.computeMajor) + std::to_string(device.computeMinor) +
           " is not in gpuscope's architecture table";
  std::vector<std::string_view> lacking;
  if (device.smCount <= 0) lacking.push_back("SM count");
  if (device.clockRate <= 0) lacking.push_back("clock rate");
  if (device.memoryBandwidth <= 0) lacking.push_back("memory bandwidth");
  if (lacking.empty()) return "";
  std::string text = "the file does not give the GPU's ";
  for (size_t i = 0; i < lacking.size(); ++i)
    text += std::string(i == 0 ? "" : i + 1 == lacking.size() ? " or " : ", ") + std::string(lacking[i]);
  return text + " (`gpuscope peaks --store FILE` measures the roofs on that GPU)";
}

}  // namespace

std::string_view roofSourceName(RoofSource source) {
  switch (source) {
    case RoofSource::Unknown:
      return "";
    case RoofSource::Theoretical:
      return "theoretical";
    case RoofSource::Measured:
      return "measured";
  }
  return "";
}

std::string DeviceRoofs::sourceSummary() const {
  std::vector<std::string_view> measured, theoretical;
  auto sort = [&](RoofSource source, std::string_view name) {
    if (source == RoofSource::Measured) measured.push_back(name);
    if (source == RoofSource::Theoretical) theoretical.push_back(name);
  };
  for (auto level : kMemoryLevels) sort(sourceOf(level), memoryLevelName(level));
  for (auto precision : kPrecisions) sort(sourceOf(precision), precisionName(precision));
  if (measured.empty() && theoretical.empty()) return unknownBecause.empty() ? "none" : "none: " + unknownBecause;
  // A uniform device reads as one word; a mixed one names each roof.
  std::string text;
  if (measured.empty() || theoretical.empty()) {
    text = measured.empty() ? "theoretical" : "measured";
  } else {
    appendNames(text, "measured", measured);
    appendNames(text, "theoretical", theoretical);
  }
  return unknownBecause.empty() ? text : text + "; unknown: " + unknownBecause;
}

const ArchitectureRates* architectureRates(int computeMajor, int computeMinor) {
  for (const auto& rates : kRates)
    if (rates.computeMajor == computeMajor && rates.computeMinor == computeMinor) return &rates;
  return nullptr;
}

DeviceRoofs deviceRoofs(const DeviceInfo& device) {
  DeviceRoofs roofs;
  roofs.deviceId = device.id;
  roofs.deviceName = device.name;
  roofs.bandwidth[static_cast<size_t>(MemoryLevel::Dram)] = static_cast<double>(device.memoryBandwidth);
  markTheoretical(roofs.bandwidth, roofs.bandwidthSource);
  const auto* rates = architectureRates(device.computeMajor, device.computeMinor);
  roofs.unknownBecause = unknownBecause(device, rates);
  if (!rates) return roofs;
  roofs.architecture = std::string(rates->name) + " (sm_" + std::to_string(device.computeMajor) +
                       std::to_string(device.computeMinor) + ")";
  double smClocks = static_cast<double>(device.smCount) * static_cast<double>(device.clockRate);
  for (size_t p = 0; p < roofs.peakFlops.size(); ++p) roofs.peakFlops[p] = rates->flopsPerClockPerSm[p] * smClocks;
  roofs.bandwidth[static_cast<size_t>(MemoryLevel::L1)] = rates->l1BytesPerClockPerSm * smClocks;
  roofs.bandwidth[static_cast<size_t>(MemoryLevel::L2)] = rates->l2BytesPerClockPerSm * smClocks;
  markTheoretical(roofs.peakFlops, roofs.peakSource);
  markTheoretical(roofs.bandwidth, roofs.bandwidthSource);
  return roofs;
}

}  // namespace gpuscope
