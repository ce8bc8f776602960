#pragma once
// ProtoMessage: protocol buffers' wire format, written by hand (varints, fixed64 and length-delimited
// fields), enough to write Perfetto's trace packets. A nested message is built in its own ProtoMessage
// and added with message(); the packets are small, so the copy costs little.
#include <cstdint>
#include <string>
#include <string_view>

namespace gpuscope {

class ProtoMessage {
 public:
  // Wire types of the protobuf encoding.
  enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2 };

  void varint(uint32_t field, uint64_t value);
  // int32/int64 fields: negative values take ten bytes, as two's complement varints.
  void signedVarint(uint32_t field, int64_t value) { varint(field, static_cast<uint64_t>(value)); }
  void fixed64(uint32_t field, uint64_t value);
  void bytes(uint32_t field, std::string_view value);
  void message(uint32_t field, const ProtoMessage& nested) { bytes(field, nested.data_); }

  const std::string& data() const { return data_; }
  void clear() { data_.clear(); }

 private:
  void tag(uint32_t field, WireType type) { rawVarint((uint64_t{field} << 3) | type); }
  void rawVarint(uint64_t value);

  std::string data_;
};

}  // namespace gpuscope
