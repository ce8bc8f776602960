// ProtoMessage: the bytes of protobuf's wire format, checked against the encoding guide's examples.
#include "core/export/protobuf_writer.h"

#include <gtest/gtest.h>

#include "tests/core/export/perfetto_reader.h"

namespace gpuscope {
namespace {

std::string hex(const std::string& bytes) {
  std::string text;
  char digits[4];
  for (unsigned char c : bytes) {
    std::snprintf(digits, sizeof digits, "%02x", c);
    text += digits;
  }
  return text;
}

TEST(ProtoMessage, VarintsAsTheEncodingGuideWritesThem) {
  ProtoMessage m;
  m.varint(1, 150);  // the guide's example: 08 96 01
  EXPECT_EQ(hex(m.data()), "089601");
  m.clear();
  m.varint(1, 0);
  m.varint(2, 127);
  m.varint(3, 128);
  EXPECT_EQ(hex(m.data()), "0800107f188001");
  m.clear();
  m.signedVarint(1, -1);  // int32/int64 -1: ten bytes
  EXPECT_EQ(hex(m.data()), "08ffffffffffffffffff01");
  m.clear();
  m.varint(60, 1);  // a two-byte tag
  EXPECT_EQ(hex(m.data()), "e00301");
}

TEST(ProtoMessage, Fixed64AndLengthDelimited) {
  ProtoMessage m;
  m.fixed64(47, 0x0102030405060708ull);
  EXPECT_EQ(hex(m.data()), "f9020807060504030201");
  m.clear();
  m.bytes(2, "testing");  // the guide's example: 12 07 74 65 73 74 69 6e 67
  EXPECT_EQ(hex(m.data()), "120774657374696e67");
  ProtoMessage outer;
  outer.message(3, m);
  EXPECT_EQ(hex(outer.data()), "1a09120774657374696e67");
}

TEST(ProtoMessage, ReadsBackThroughAnIndependentReader) {
  ProtoMessage inner, outer;
  inner.varint(1, uint64_t{1} << 63);
  inner.bytes(2, std::string(300, 'x'));
  outer.message(11, inner);
  outer.fixed64(48, 42);
  auto fields = test::wireFields(outer.data());
  ASSERT_EQ(fields.size(), 2u);
  EXPECT_EQ(fields[0].number, 11u);
  auto innerFields = test::wireFields(fields[0].bytes);
  ASSERT_EQ(innerFields.size(), 2u);
  EXPECT_EQ(innerFields[0].value, uint64_t{1} << 63);
  EXPECT_EQ(innerFields[1].bytes.size(), 300u);
  EXPECT_EQ(fields[1].wireType, 1u);
  EXPECT_EQ(fields[1].value, 42u);
}

}  // namespace
}  // namespace gpuscope
