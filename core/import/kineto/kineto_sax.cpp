#include "core/import/kineto/kineto_sax.h"

#include <array>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/error.h"

namespace gpuscope::kineto {
namespace {

// Container depths: 1 the document, 2 traceEvents / deviceProperties / distributedInfo,
// 3 one event or device, 4 an event's args, 5 the grid / block arrays inside args.
constexpr size_t kMaxTrackedDepth = 6;

class KinetoSax {
 public:
  using json = nlohmann::json;
  KinetoSax(const std::function<void(const KinetoEvent&)>& onEvent, KinetoHeader& header)
      : onEvent_(onEvent), header_(header) {}

  bool null() { return scalar(); }
  bool boolean(bool) { return scalar(); }
  bool number_integer(json::number_integer_t value) { return integer(value, nullptr); }
  bool number_unsigned(json::number_unsigned_t value) {
    if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return scalar();
    return integer(static_cast<int64_t>(value), nullptr);
  }
  bool number_float(json::number_float_t, const json::string_t& text) { return floating(text); }
  bool string(json::string_t& value) { return text(value); }
  bool binary(json::binary_t&) { return scalar(); }
  bool key(json::string_t& key) {
    if (depth_ < kMaxTrackedDepth) keys_[depth_] = std::move(key);
    return true;
  }
  bool start_object(size_t) { return open(false); }
  bool end_object() { return close(); }
  bool start_array(size_t) { return open(true); }
  bool end_array() { return close(); }
  bool parse_error(size_t position, const std::string&, const nlohmann::detail::exception& error) {
    error_ = "is not valid JSON near byte " + std::to_string(position) + " (" + error.what() + ")";
    return false;
  }
  const std::string& error() const { return error_; }

 private:
  enum class Section { None, Events, Devices, Distributed };

  bool open(bool array) {
    if (depth_ == 0 && array) {
      error_ = "is JSON but not a Chrome trace: it is an array, not an object with traceEvents";
      return false;
    }
    if (depth_ == 1) section_ = sectionFor(keys_[1], array);
    ++depth_;
    if (depth_ < kMaxTrackedDepth) {
      isArray_[depth_] = array;
      index_[depth_] = 0;
      keys_[depth_].clear();
    }
    if (section_ == Section::Events && depth_ == 2) header_.sawTraceEvents = true;
    if (section_ == Section::Devices && depth_ == 3) device_ = KinetoDevice{};
    return true;
  }

  bool close() {
    if (section_ == Section::Events && depth_ == 3) {
      onEvent_(event_);
      event_.clear();
    } else if (section_ == Section::Devices && depth_ == 3) {
      header_.devices.push_back(std::move(device_));
    }
    --depth_;
    if (depth_ <= 1) section_ = Section::None;
    return true;
  }

  static Section sectionFor(const std::string& key, bool array) {
    if (key == "traceEvents" && array) return Section::Events;
    if (key == "deviceProperties" && array) return Section::Devices;
    if (key == "distributedInfo" && !array) return Section::Distributed;
    return Section::None;
  }

  // The key of the value now being read, or, inside an array, the array's key and the index.
  const std::string& currentKey() const { return keys_[depth_ < kMaxTrackedDepth ? depth_ : 0]; }
  bool inArray() const { return depth_ < kMaxTrackedDepth && isArray_[depth_]; }

  bool scalar() {
    if (inArray()) ++index_[depth_];
    return true;
  }

  bool integer(int64_t value, const std::string* text) {
    (void)text;
    if (section_ == Section::Events) {
      eventInteger(value);
    } else if (section_ == Section::Devices && depth_ == 3) {
      deviceInteger(currentKey(), value);
    } else if (section_ == Section::Distributed && depth_ == 2 && currentKey() == "rank") {
      header_.rank = value;
    } else if (section_ == Section::Distributed && depth_ == 2 && currentKey() == "world_size") {
      header_.worldSize = value;
    } else if (depth_ == 1 && currentKey() == "baseTimeNanoseconds") {
      header_.baseTimeNanoseconds = value;
    }
    return scalar();
  }

  void eventInteger(int64_t value) {
    if (depth_ == 3) {
      const auto& key = currentKey();
      if (key == "pid") event_.pid.number = value;
      if (key == "tid") event_.tid.number = value;
      if (key == "id") event_.flowId = value;
      if (key == "ts" && value < 9'000'000'000'000'000) event_.ts = value * 1000;
      if (key == "dur" && value < 9'000'000'000'000'000) event_.dur = value * 1000;
    } else if (depth_ == 4 && keys_[3] == "args") {
      argInteger(currentKey(), value);
    } else if (depth_ == 5 && keys_[3] == "args" && index_[5] < 3) {
      if (keys_[4] == "grid") event_.grid[index_[5]] = value;
      if (keys_[4] == "block") event_.block[index_[5]] = value;
    }
  }

  void argInteger(const std::string& key, int64_t value) {
    if (key == "correlation")
      event_.correlation = value;
    else if (key == "device")
      event_.device = value;
    else if (key == "stream")
      event_.stream = value;
    else if (key == "context")
      event_.context = value;
    else if (key == "bytes")
      event_.bytes = value;
    else if (key == "registers per thread")
      event_.registers = value;
    else if (key == "shared memory")
      event_.sharedMemory = value;
    else if (key == "Device Type")
      event_.memoryDeviceType = value;
    else if (key == "Device Id")
      event_.memoryDeviceId = value;
    else if (key == "Addr")
      event_.memoryAddress = value;
    else if (key == "Bytes")
      event_.memoryBytes = value;
  }

  void deviceInteger(const std::string& key, int64_t value) {
    auto& d = device_;
    if (key == "id")
      d.id = value;
    else if (key == "totalGlobalMem")
      d.totalGlobalMem = value;
    else if (key == "computeMajor")
      d.computeMajor = value;
    else if (key == "computeMinor")
      d.computeMinor = value;
    else if (key == "maxThreadsPerBlock")
      d.maxThreadsPerBlock = value;
    else if (key == "maxThreadsPerMultiprocessor")
      d.maxThreadsPerMultiprocessor = value;
    else if (key == "regsPerBlock")
      d.regsPerBlock = value;
    else if (key == "warpSize")
      d.warpSize = value;
    else if (key == "sharedMemPerBlock")
      d.sharedMemPerBlock = value;
    else if (key == "numSms")
      d.numSms = value;
    else if (key == "regsPerMultiprocessor")
      d.regsPerMultiprocessor = value;
    else if (key == "sharedMemPerBlockOptin")
      d.sharedMemPerBlockOptin = value;
    else if (key == "sharedMemPerMultiprocessor")
      d.sharedMemPerMultiprocessor = value;
  }

  bool floating(const std::string& text) {
    if (section_ == Section::Events && depth_ == 3) {
      const auto& key = currentKey();
      if (key == "ts") event_.ts = microsecondsTextToNs(text);
      if (key == "dur") event_.dur = microsecondsTextToNs(text);
    }
    return scalar();
  }

  bool text(std::string& value) {
    if (section_ == Section::Events && depth_ == 3) {
      const auto& key = currentKey();
      if (key == "ph")
        event_.ph = std::move(value);
      else if (key == "cat")
        event_.cat = std::move(value);
      else if (key == "name")
        event_.name = std::move(value);
      else if (key == "pid")
        event_.pid.text = std::move(value);
      else if (key == "tid")
        event_.tid.text = std::move(value);
    } else if (section_ == Section::Events && depth_ == 4 && keys_[3] == "args" && currentKey() == "name") {
      event_.argName = std::move(value);
    } else if (section_ == Section::Devices && depth_ == 3 && currentKey() == "name") {
      device_.name = std::move(value);
    }
    return scalar();
  }

  const std::function<void(const KinetoEvent&)>& onEvent_;
  KinetoHeader& header_;
  size_t depth_ = 0;
  Section section_ = Section::None;
  std::array<std::string, kMaxTrackedDepth> keys_;
  std::array<bool, kMaxTrackedDepth> isArray_{};
  std::array<size_t, kMaxTrackedDepth> index_{};
  KinetoEvent event_;
  KinetoDevice device_;
  std::string error_;
};

}  // namespace

KinetoHeader parseKinetoStream(std::istream& input, const std::string& path,
                               const std::function<void(const KinetoEvent&)>& onEvent) {
  KinetoHeader header;
  KinetoSax sax(onEvent, header);
  bool ok = nlohmann::json::sax_parse(input, &sax, nlohmann::json::input_format_t::json, false);
  if (!ok) throw TraceError(path + " " + (sax.error().empty() ? "could not be read as JSON" : sax.error()) + ".");
  if (!header.sawTraceEvents)
    throw TraceError(path + " is JSON but not a PyTorch profiler trace: it has no traceEvents array.");
  return header;
}

}  // namespace gpuscope::kineto
