#pragma once
// A minimal protobuf reader for the tests: it decodes a Perfetto trace written by the exporter into the
// few fields the tests check, independently of the writer's own code.
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope::test {

struct WireField {
  uint32_t number = 0;
  uint32_t wireType = 0;
  uint64_t value = 0;      // varint and fixed64
  std::string_view bytes;  // length-delimited
};

// Every field of MESSAGE in order; throws std::runtime_error on a truncated or malformed message.
inline std::vector<WireField> wireFields(std::string_view message) {
  std::vector<WireField> fields;
  size_t i = 0;
  auto varint = [&]() {
    uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (i >= message.size()) throw std::runtime_error("truncated varint");
      auto byte = static_cast<unsigned char>(message[i++]);
      value |= uint64_t{byte & 0x7Fu} << shift;
      if (!(byte & 0x80)) return value;
    }
    throw std::runtime_error("varint too long");
  };
  while (i < message.size()) {
    uint64_t tag = varint();
    WireField field{static_cast<uint32_t>(tag >> 3), static_cast<uint32_t>(tag & 7), 0, {}};
    if (field.wireType == 0) {
      field.value = varint();
    } else if (field.wireType == 1) {
      if (i + 8 > message.size()) throw std::runtime_error("truncated fixed64");
      for (int b = 0; b < 8; ++b) field.value |= uint64_t{static_cast<unsigned char>(message[i + b])} << (8 * b);
      i += 8;
    } else if (field.wireType == 2) {
      uint64_t length = varint();
      if (length > message.size() - i) throw std::runtime_error("truncated bytes");
      field.bytes = message.substr(i, length);
      i += length;
    } else {
      throw std::runtime_error("unexpected wire type");
    }
    fields.push_back(field);
  }
  return fields;
}

struct DecodedEvent {
  uint64_t timestamp = 0;
  uint32_t sequence = 0;
  uint64_t type = 0;
  uint64_t track = 0;
  std::string name;
  std::string category;
  std::vector<uint64_t> flows, terminatingFlows;
};

struct DecodedTrack {
  uint64_t parent = 0;
  std::string name;
  bool process = false, thread = false;
  int64_t pid = 0, tid = 0;
  std::string threadName;
};

struct DecodedTrace {
  std::vector<DecodedEvent> events;
  std::map<uint64_t, DecodedTrack> tracks;
  std::map<uint64_t, uint64_t> clocks;  // clock id -> timestamp of the snapshot
  std::vector<std::string> strings;     // every string field seen, for UTF-8 checks
};

inline DecodedTrack decodeTrack(std::string_view bytes, uint64_t& uuid, std::vector<std::string>& strings) {
  DecodedTrack track;
  for (const auto& f : wireFields(bytes)) {
    if (f.number == 1) uuid = f.value;
    if (f.number == 5) track.parent = f.value;
    if (f.number == 2) strings.emplace_back(track.name = std::string(f.bytes));
    if (f.number == 3 || f.number == 4) {
      (f.number == 3 ? track.process : track.thread) = true;
      for (const auto& d : wireFields(f.bytes)) {
        if (d.number == 1) track.pid = static_cast<int32_t>(d.value);
        if (d.number == 2 && f.number == 4) track.tid = static_cast<int32_t>(d.value);
        if ((d.number == 5 && f.number == 4) || (d.number == 6 && f.number == 3))
          strings.emplace_back(track.threadName = std::string(d.bytes));
      }
    }
  }
  return track;
}

inline DecodedTrace decodePerfettoTrace(std::string_view file) {
  DecodedTrace trace;
  for (const auto& packetField : wireFields(file)) {
    if (packetField.number != 1 || packetField.wireType != 2) throw std::runtime_error("not a Trace");
    DecodedEvent event;
    bool hasEvent = false;
    for (const auto& f : wireFields(packetField.bytes)) {
      if (f.number == 8) event.timestamp = f.value;
      if (f.number == 10) event.sequence = static_cast<uint32_t>(f.value);
      if (f.number == 6)
        for (const auto& clock : wireFields(f.bytes)) {
          uint64_t id = 0, timestamp = 0;
          for (const auto& c : wireFields(clock.bytes)) (c.number == 1 ? id : timestamp) = c.value;
          trace.clocks[id] = timestamp;
        }
      if (f.number == 60) {
        uint64_t uuid = 0;
        auto track = decodeTrack(f.bytes, uuid, trace.strings);
        trace.tracks[uuid] = track;
      }
      if (f.number == 11) {
        hasEvent = true;
        for (const auto& e : wireFields(f.bytes)) {
          if (e.number == 9) event.type = e.value;
          if (e.number == 11) event.track = e.value;
          if (e.number == 23) trace.strings.emplace_back(event.name = std::string(e.bytes));
          if (e.number == 22) event.category = std::string(e.bytes);
          if (e.number == 47) event.flows.push_back(e.value);
          if (e.number == 48) event.terminatingFlows.push_back(e.value);
        }
      }
    }
    if (hasEvent) trace.events.push_back(std::move(event));
  }
  return trace;
}

}  // namespace gpuscope::test
