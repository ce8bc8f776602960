// The shared-memory ring: what a writer publishes, a reader in another mapping gets back, in
// order, across wrap-around; full rings drop and count; damage is skipped, never followed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "collector/transport/ring_reader.h"
#include "collector/transport/ring_writer.h"

namespace gpuscope::transport {
namespace {

namespace fs = std::filesystem;

class RingTransportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/gpuscope-ring-test-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string onlyRingFile() const {
    std::string found;
    for (const auto& entry : fs::directory_iterator(dir_)) {
      if (entry.path().extension() == ".ring") found = entry.path().string();
    }
    return found;
  }

  std::string dir_;
};

struct Collected {
  RecordType type;
  uint16_t aux;
  uint32_t tid;
  std::vector<uint8_t> body;
};

std::vector<Collected> drainAll(RingFileReader& reader, uint32_t ring) {
  std::vector<Collected> records;
  reader.drainAll(ring, [&](const RecordView& view) {
    records.push_back({view.type, view.aux, view.tid, std::vector<uint8_t>(view.body, view.body + view.bodyBytes)});
  });
  return records;
}

TEST_F(RingTransportTest, PublishedRecordsComeBackInOrderWithTheirText) {
  RingFileConfig config{4, 4096};
  std::unique_ptr<RingFileWriter> writer(RingFileWriter::create(dir_.c_str(), config, 4242, 1, 99, 123));
  ASSERT_TRUE(writer);
  uint32_t ring = writer->claimRing(7);
  EXPECT_EQ(ring, 1u);
  OsRuntimeBody body{10, 20, -1};
  ASSERT_TRUE(writer->write(ring, RecordType::OsRuntime, 3, 7, &body, sizeof body));
  std::string_view name = "thread one";
  ThreadNameBody nameBody{0, static_cast<uint32_t>(name.size())};
  ASSERT_TRUE(writer->write(ring, RecordType::ThreadName, 0, 7, &nameBody, sizeof nameBody, &name, 1));

  std::string error;
  auto reader = RingFileReader::open(onlyRingFile(), &error);
  ASSERT_TRUE(reader) << error;
  EXPECT_EQ(reader->pid(), 4242u);
  EXPECT_EQ(reader->ppid(), 1u);
  EXPECT_EQ(reader->procStartTicks(), 99u);
  auto records = drainAll(*reader, ring);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].type, RecordType::OsRuntime);
  EXPECT_EQ(records[0].aux, 3);
  EXPECT_EQ(records[0].tid, 7u);
  OsRuntimeBody read{};
  std::memcpy(&read, records[0].body.data(), sizeof read);
  EXPECT_EQ(read.start, 10);
  EXPECT_EQ(read.end, 20);
  EXPECT_EQ(read.returnValue, -1);
  EXPECT_EQ(records[1].type, RecordType::ThreadName);
  std::string text(reinterpret_cast<const char*>(records[1].body.data()) + sizeof nameBody, name.size());
  EXPECT_EQ(text, "thread one");
  EXPECT_TRUE(drainAll(*reader, ring).empty());
}

TEST_F(RingTransportTest, WrapsAroundAndDropsOnlyWhenFull) {
  RingFileConfig config{2, 4096};
  std::unique_ptr<RingFileWriter> writer(RingFileWriter::create(dir_.c_str(), config, 1, 0, 0, 0));
  ASSERT_TRUE(writer);
  std::string error;
  std::unique_ptr<RingFileReader> reader;
  uint32_t ring = writer->claimRing(1);
  int64_t written = 0;
  int64_t readBack = 0;
  // 40-byte records through a 4 KiB ring, drained every 50: many wrap-arounds, no loss.
  for (int64_t i = 0; i < 5000; ++i) {
    OsRuntimeBody body{i, i + 1, 0};
    ASSERT_TRUE(writer->write(ring, RecordType::OsRuntime, 0, 1, &body, sizeof body)) << i;
    ++written;
    if (i % 50 == 49) {
      if (!reader) reader = RingFileReader::open(onlyRingFile(), &error);
      ASSERT_TRUE(reader) << error;
      for (const Collected& record : drainAll(*reader, ring)) {
        OsRuntimeBody body2{};
        std::memcpy(&body2, record.body.data(), sizeof body2);
        EXPECT_EQ(body2.start, readBack);
        ++readBack;
      }
    }
  }
  EXPECT_EQ(readBack, written);
  // Without a reader the ring fills: the rest is dropped and counted, not overwritten.
  int accepted = 0;
  for (int i = 0; i < 1000; ++i) {
    OsRuntimeBody body{i, i, 0};
    if (writer->write(ring, RecordType::OsRuntime, 0, 1, &body, sizeof body)) ++accepted;
  }
  EXPECT_GT(accepted, 50);
  EXPECT_LT(accepted, 4096 / 40 + 1);
  EXPECT_EQ(reader->dropped(), static_cast<uint64_t>(1000 - accepted));
  EXPECT_EQ(drainAll(*reader, ring).size(), static_cast<size_t>(accepted));
}

TEST_F(RingTransportTest, EveryThreadGetsItsOwnRingUntilTheyRunOut) {
  RingFileConfig config{3, 4096};
  std::unique_ptr<RingFileWriter> writer(RingFileWriter::create(dir_.c_str(), config, 1, 0, 0, 0));
  ASSERT_TRUE(writer);
  EXPECT_EQ(writer->claimRing(10), 1u);
  EXPECT_EQ(writer->claimRing(11), 2u);
  EXPECT_EQ(writer->claimRing(12), 0u);  // the shared ring
  writer->releaseRing(1);
  EXPECT_EQ(writer->claimRing(13), 1u);
}

TEST_F(RingTransportTest, DamageIsSkippedAndCounted) {
  RingFileConfig config{2, 4096};
  std::unique_ptr<RingFileWriter> writer(RingFileWriter::create(dir_.c_str(), config, 1, 0, 0, 0));
  ASSERT_TRUE(writer);
  OsRuntimeBody body{1, 2, 3};
  ASSERT_TRUE(writer->write(0, RecordType::OsRuntime, 0, 1, &body, sizeof body));
  ASSERT_TRUE(writer->write(0, RecordType::OsRuntime, 0, 1, &body, sizeof body));
  // Scribble over the second record's size, as a crashing program might.
  auto* base = reinterpret_cast<uint8_t*>(&writer->header());
  RecordHeader* second =
      reinterpret_cast<RecordHeader*>(base + writer->header().dataOffset + recordSize(sizeof body, 0));
  second->sizeBytes = 3;
  std::string error;
  auto reader = RingFileReader::open(onlyRingFile(), &error);
  ASSERT_TRUE(reader) << error;
  EXPECT_EQ(drainAll(*reader, 0).size(), 1u);
  EXPECT_EQ(reader->corrupt(), 1u);
  // The writer goes on after the damage.
  ASSERT_TRUE(writer->write(0, RecordType::OsRuntime, 0, 1, &body, sizeof body));
  EXPECT_EQ(drainAll(*reader, 0).size(), 1u);
}

TEST_F(RingTransportTest, NotARingFileIsRefused) {
  std::string path = dir_ + "/bogus.ring";
  FILE* file = std::fopen(path.c_str(), "w");
  ASSERT_TRUE(file);
  std::vector<char> zeros(8192, 0);
  std::fwrite(zeros.data(), 1, zeros.size(), file);
  std::fclose(file);
  std::string error;
  EXPECT_FALSE(RingFileReader::open(path, &error));
  EXPECT_NE(error.find("not a gpuscope ring file"), std::string::npos) << error;
}

}  // namespace
}  // namespace gpuscope::transport
