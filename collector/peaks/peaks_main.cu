// gpuscope-peaks: measures one GPU's roofs and prints them as one JSON object on stdout, for `gpuscope peaks`
// (core/roofline/peaks_measurement.h reads it). On failure it prints {"format": 1, "error": "..."} with one
// sentence and exits 1, so gpuscope can say why in its own words.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "collector/peaks/peak_kernels.cuh"
#include "collector/peaks/peak_timing.cuh"

namespace gpuscope::peaks {
namespace {

constexpr int kFormat = 1;  // kPeaksFormatVersion in core/roofline/peaks_measurement.h

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", c);
      out += escape;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

// The UUID as nsys writes it in TARGET_INFO_GPU: bare, lower-case, 8-4-4-4-12.
std::string uuidText(const cudaUUID_t& uuid) {
  const auto* u = reinterpret_cast<const unsigned char*>(uuid.bytes);
  char text[40];
  std::snprintf(text, sizeof text, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
                u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
  return text;
}

long long attribute(cudaDeviceAttr which, int device) {
  int value = 0;
  return cudaDeviceGetAttribute(&value, which, device) == cudaSuccess ? value : 0;
}

// The device's facts as TARGET_INFO_GPU has them (clock in Hz, bandwidth in bytes/s = 2 x memory clock x bus).
std::string deviceJson(int device, const cudaDeviceProp& prop) {
  long long clockHz = attribute(cudaDevAttrClockRate, device) * 1000;
  long long memoryHz = attribute(cudaDevAttrMemoryClockRate, device) * 1000;
  long long busBytes = attribute(cudaDevAttrGlobalMemoryBusWidth, device) / 8;
  return "{\"ordinal\": " + std::to_string(device) + ", \"name\": " + quoted(prop.name) +
         ", \"uuid\": " + quoted(uuidText(prop.uuid)) + ", \"computeMajor\": " + std::to_string(prop.major) +
         ", \"computeMinor\": " + std::to_string(prop.minor) +
         ", \"smCount\": " + std::to_string(prop.multiProcessorCount) + ", \"clockRate\": " + std::to_string(clockHz) +
         ", \"memoryBandwidth\": " + std::to_string(2 * memoryHz * busBytes) +
         ", \"l2CacheSize\": " + std::to_string(prop.l2CacheSize) +
         ", \"totalMemory\": " + std::to_string(prop.totalGlobalMem) + "}";
}

std::string peakJson(const Peak& peak) {
  return "{\"kind\": " + quoted(peak.kind) + ", \"value\": " + number(peak.value) +
         ", \"method\": " + quoted(peak.method) + "}";
}

int selectDevice(int device) {
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0)
    throw std::runtime_error(std::string("no CUDA GPU is visible here (") +
                             (status != cudaSuccess ? cudaGetErrorString(status) : "no devices") + ")");
  if (device < 0 || device >= count)
    throw std::runtime_error("there is no CUDA device " + std::to_string(device) + ": this machine has " +
                             std::to_string(count) + " (0 to " + std::to_string(count - 1) + ")");
  check(cudaSetDevice(device), "cudaSetDevice");
  return device;
}

GpuShape shapeOf(const cudaDeviceProp& prop) {
  GpuShape gpu;
  gpu.smCount = prop.multiProcessorCount;
  gpu.maxThreadsPerSm = prop.maxThreadsPerMultiProcessor;
  gpu.l2Bytes = static_cast<size_t>(prop.l2CacheSize);
  size_t total = 0;
  check(cudaMemGetInfo(&gpu.freeBytes, &total), "cudaMemGetInfo");
  return gpu;
}

long long nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string measureAll(int device) {
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  GpuShape gpu = shapeOf(prop);
  long long measuredAt = nowNs();
  std::vector<Peak> peaks = {measureDram(gpu), measureL2(gpu),   measureShared(gpu),
                             measureFp64(gpu), measureFp32(gpu), measureFp16(gpu)};
  std::string json = "{\"format\": " + std::to_string(kFormat) +
                     ", \"helper\": " + quoted(std::string("gpuscope-peaks ") + GPUSCOPE_VERSION) +
                     ", \"measuredAt\": " + std::to_string(measuredAt) + ", \"device\": " + deviceJson(device, prop) +
                     ", \"peaks\": [";
  for (size_t i = 0; i < peaks.size(); ++i) json += (i ? ", " : "") + peakJson(peaks[i]);
  return json + "]}\n";
}

int parseDevice(int argc, char** argv) {
  int device = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
      char* end = nullptr;
      long value = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || value < 0 || value > 1024) throw std::runtime_error("--device takes a CUDA device number");
      device = static_cast<int>(value);
    } else {
      throw std::runtime_error(std::string("unknown argument ") + argv[i] + " (usage: gpuscope-peaks [--device N])");
    }
  }
  return device;
}

}  // namespace
}  // namespace gpuscope::peaks

int main(int argc, char** argv) {
  using namespace gpuscope::peaks;
  try {
    std::fputs(measureAll(selectDevice(parseDevice(argc, argv))).c_str(), stdout);
    return 0;
  } catch (const std::exception& e) {
    std::printf("{\"format\": %d, \"error\": %s}\n", kFormat,
                quoted(std::string("gpuscope-peaks: ") + e.what() + ".").c_str());
    return 1;
  }
}
