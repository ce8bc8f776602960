#include "core/export/protobuf_writer.h"

namespace gpuscope {

void ProtoMessage::rawVarint(uint64_t value) {
  while (value >= 0x80) {
    data_.push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  data_.push_back(static_cast<char>(value));
}

void ProtoMessage::varint(uint32_t field, uint64_t value) {
  tag(field, kVarint);
  rawVarint(value);
}

void ProtoMessage::fixed64(uint32_t field, uint64_t value) {
  tag(field, kFixed64);
  for (int i = 0; i < 8; ++i) data_.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

void ProtoMessage::bytes(uint32_t field, std::string_view value) {
  tag(field, kLengthDelimited);
  rawVarint(value.size());
  data_.append(value);
}

}  // namespace gpuscope
