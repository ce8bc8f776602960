// Properties of the ring transport that must hold for every layout: a record of any size that
// wraps at any offset comes back whole and in order, never touches the neighbouring ring, and
// several threads writing with back-pressure while a reader drains lose nothing.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "collector/transport/ring_reader.h"
#include "collector/transport/ring_writer.h"

namespace gpuscope::transport {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kRingBytes = 4096;
constexpr uint32_t kHeaderBytes = sizeof(RecordHeader);
constexpr uint32_t kBodyBytes = 16;  // OsRuntimeBody-sized: a sequence number and a check value

class RingPropertyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/dev/shm/gpuscope-ring-property-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A fresh ring file (written by WRITER, read by the returned reader).
  std::unique_ptr<RingFileReader> freshFile(std::unique_ptr<RingFileWriter>& writer, uint32_t rings,
                                            uint32_t consumerPid = 0) {
    fs::remove_all(dir_);
    fs::create_directory(dir_);
    RingFileConfig config{rings, kRingBytes, consumerPid};
    writer.reset(RingFileWriter::create(dir_.c_str(), config, 4242, 1, 0, 0));
    if (!writer) return nullptr;
    std::string path;
    for (const auto& entry : fs::directory_iterator(dir_)) path = entry.path().string();
    std::string error;
    return RingFileReader::open(path, &error);
  }

  std::string dir_;
};

// A record of SIZE bytes in all: a 16-byte body (sequence, check) and SIZE - 32 bytes of text whose
// bytes are derived from the sequence, so any damage or misplacement shows.
bool writeRecord(RingFileWriter& writer, uint32_t ring, uint32_t size, uint64_t sequence, int64_t waitNs = 0) {
  uint64_t body[2] = {sequence, ~sequence};
  std::string text(size - kHeaderBytes - kBodyBytes, '\0');
  for (size_t i = 0; i < text.size(); ++i) text[i] = static_cast<char>('a' + (sequence + i) % 26);
  std::string_view view(text);
  return writer.write(ring, RecordType::OsRuntime, 7, 9, body, kBodyBytes, &view, 1, waitNs);
}

// Checks one record that writeRecord wrote; returns its sequence, or ~0 when it is damaged.
uint64_t checkRecord(const RecordView& view) {
  if (view.type != RecordType::OsRuntime || view.aux != 7 || view.tid != 9 || view.bodyBytes < kBodyBytes) return ~0ull;
  uint64_t body[2];
  std::memcpy(body, view.body, sizeof body);
  if (body[1] != ~body[0]) return ~0ull;
  for (uint32_t i = 0; i < view.bodyBytes - kBodyBytes; ++i) {
    if (view.body[kBodyBytes + i] != static_cast<uint8_t>('a' + (body[0] + i) % 26)) return ~0ull;
  }
  return body[0];
}

// Moves ring 1's head to OFFSET (a multiple of 8, at least 32) with filler records that do not wrap.
void advanceTo(RingFileWriter& writer, RingFileReader& reader, uint32_t offset, uint64_t& sequence) {
  if (offset < 64) {
    ASSERT_TRUE(writeRecord(writer, 1, offset, sequence++));
  } else {
    uint32_t first = offset - 32 > 2048 ? 2048 : offset - 32;
    ASSERT_TRUE(writeRecord(writer, 1, first, sequence++));
    ASSERT_TRUE(writeRecord(writer, 1, offset - first, sequence++));
  }
  reader.drainAll(1, [](const RecordView&) {});
}

// Every record size that a ring takes (16 bytes to half the ring) at every offset where it does not
// fit before the end, the 8-bytes-left case included: it comes back whole, in order, and the ring
// after it (holding a record of its own) is untouched.
TEST_F(RingPropertyTest, EverySizeWrapsAtEveryOffsetWithoutLossOrDamage) {
  std::unique_ptr<RingFileWriter> writer;
  int cases = 0;
  for (uint32_t size = 32; size <= kRingBytes / 2; size += 8) {
    for (uint32_t offset = static_cast<uint32_t>(kRingBytes) - size + 8; offset < kRingBytes; offset += 8) {
      if (offset < 32) continue;
      std::unique_ptr<RingFileReader> reader = freshFile(writer, 3);
      ASSERT_TRUE(writer && reader);
      ASSERT_EQ(writer->claimRing(1), 1u);
      ASSERT_EQ(writer->claimRing(2), 2u);
      ASSERT_TRUE(writeRecord(*writer, 2, 64, 999));  // the neighbour's record
      uint64_t sequence = 0;
      advanceTo(*writer, *reader, offset, sequence);
      ASSERT_EQ(reader->head(1) % kRingBytes, offset);
      // Two laps of records of SIZE from there, drained after each write.
      uint64_t expected = sequence;
      for (int i = 0; i < 2 * static_cast<int>(kRingBytes / size) + 2; ++i) {
        ASSERT_TRUE(writeRecord(*writer, 1, size, sequence++)) << "size " << size << " offset " << offset;
        reader->drainAll(1, [&](const RecordView& view) {
          EXPECT_EQ(checkRecord(view), expected) << "size " << size << " offset " << offset;
          ++expected;
        });
      }
      EXPECT_EQ(expected, sequence) << "size " << size << " offset " << offset;
      size_t neighbour = reader->drainAll(2, [&](const RecordView& view) { EXPECT_EQ(checkRecord(view), 999u); });
      EXPECT_EQ(neighbour, 1u) << "size " << size << " offset " << offset;
      ASSERT_EQ(reader->corrupt(), 0u) << "size " << size << " offset " << offset;
      ASSERT_EQ(reader->dropped(), 0u);
      ++cases;
    }
  }
  EXPECT_GT(cases, 30000);
}

// The case that lost data before: exactly 8 bytes left at the end of the ring, with two records
// published before one drain.
TEST_F(RingPropertyTest, EightBytesLeftAtTheEndIsSkippedWithoutAHeader) {
  std::unique_ptr<RingFileWriter> writer;
  std::unique_ptr<RingFileReader> reader = freshFile(writer, 3);
  ASSERT_TRUE(writer && reader);
  ASSERT_EQ(writer->claimRing(1), 1u);
  ASSERT_EQ(writer->claimRing(2), 2u);
  ASSERT_TRUE(writeRecord(*writer, 2, 48, 77));
  uint64_t sequence = 0;
  advanceTo(*writer, *reader, kRingBytes - 8, sequence);
  ASSERT_TRUE(writeRecord(*writer, 1, 40, 100));
  ASSERT_TRUE(writeRecord(*writer, 1, 40, 101));
  std::vector<uint64_t> seen;
  reader->drainAll(1, [&](const RecordView& view) { seen.push_back(checkRecord(view)); });
  EXPECT_EQ(seen, (std::vector<uint64_t>{100, 101}));
  EXPECT_EQ(reader->corrupt(), 0u);
  std::vector<uint64_t> neighbour;
  reader->drainAll(2, [&](const RecordView& view) { neighbour.push_back(checkRecord(view)); });
  EXPECT_EQ(neighbour, (std::vector<uint64_t>{77}));
}

// Random sizes through small rings, several producers (own rings and the shared, locked ring 0)
// against one reader draining concurrently: with back-pressure nothing is dropped, and every
// producer's records arrive complete and in order.
TEST_F(RingPropertyTest, ConcurrentWritersWithBackPressureLoseNothing) {
  std::unique_ptr<RingFileWriter> writer;
  std::unique_ptr<RingFileReader> reader = freshFile(writer, 5, static_cast<uint32_t>(getpid()));
  ASSERT_TRUE(writer && reader);
  constexpr int kOwnRingThreads = 4;
  constexpr int kSharedRingThreads = 3;
  constexpr uint64_t kPerThread = 20000;
  std::atomic<int> running{kOwnRingThreads + kSharedRingThreads};
  std::atomic<uint64_t> failures{0};
  std::vector<std::thread> producers;
  for (int t = 0; t < kOwnRingThreads + kSharedRingThreads; ++t) {
    producers.emplace_back([&, t] {
      uint32_t ring = t < kOwnRingThreads ? writer->claimRing(static_cast<uint32_t>(t + 1)) : 0;
      std::mt19937 random(static_cast<unsigned>(t));
      std::uniform_int_distribution<uint32_t> eighths(4, 120);  // 32 .. 960 bytes
      for (uint64_t i = 0; i < kPerThread; ++i) {
        uint64_t sequence = (static_cast<uint64_t>(t) << 32) | i;
        if (!writeRecord(*writer, ring, eighths(random) * 8, sequence, kWaitWhileConsumerLives)) ++failures;
      }
      --running;
    });
  }
  std::vector<uint64_t> next(kOwnRingThreads + kSharedRingThreads, 0);
  uint64_t outOfOrder = 0;
  auto sink = [&](const RecordView& view) {
    uint64_t sequence = checkRecord(view);
    if (sequence == ~0ull) {
      ++outOfOrder;
      return;
    }
    uint64_t thread = sequence >> 32;
    if (thread >= next.size() || (sequence & 0xffffffffu) != next[thread]) ++outOfOrder;
    if (thread < next.size()) next[thread] = (sequence & 0xffffffffu) + 1;
  };
  std::mt19937 random(99);
  while (running.load() > 0) {
    for (uint32_t ring = 0; ring < reader->ringCount(); ++ring) {
      // Drain to a random point short of the head sometimes, to vary where the reader stands.
      uint64_t head = reader->head(ring);
      reader->drain(ring, head, sink);
    }
    if (random() % 4 == 0) std::this_thread::yield();
  }
  for (std::thread& producer : producers) producer.join();
  for (uint32_t ring = 0; ring < reader->ringCount(); ++ring) reader->drainAll(ring, sink);
  EXPECT_EQ(failures.load(), 0u);
  EXPECT_EQ(reader->dropped(), 0u);
  EXPECT_EQ(reader->corrupt(), 0u);
  EXPECT_EQ(outOfOrder, 0u);
  for (size_t t = 0; t < next.size(); ++t) EXPECT_EQ(next[t], kPerThread) << "producer " << t;
}

// A writer waiting for room gives up once the consumer process is gone, and counts the record.
TEST_F(RingPropertyTest, WaitingEndsWhenTheConsumerIsGone) {
  pid_t gone = fork();
  if (gone == 0) _exit(0);
  ASSERT_GT(gone, 0);
  int status = 0;
  waitpid(gone, &status, 0);
  std::unique_ptr<RingFileWriter> writer;
  std::unique_ptr<RingFileReader> reader = freshFile(writer, 2, static_cast<uint32_t>(gone));
  ASSERT_TRUE(writer && reader);
  uint32_t ring = writer->claimRing(1);
  int written = 0;
  while (writeRecord(*writer, ring, 512, static_cast<uint64_t>(written), kWaitWhileConsumerLives)) ++written;
  EXPECT_EQ(written, static_cast<int>(kRingBytes / 512));
  EXPECT_EQ(reader->dropped(), 1u);
}

}  // namespace
}  // namespace gpuscope::transport
