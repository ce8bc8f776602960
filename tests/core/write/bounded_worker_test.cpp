// BoundedWorker: the record path's one queue. Jobs run in order on one thread, no more than the
// bound wait, and the first error stops the worker and reaches the producer.
#include "core/write/bounded_worker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

namespace gpuscope {
namespace {

TEST(BoundedWorker, RunsEveryJobInOrder) {
  std::vector<int> seen;
  BoundedWorker<int> worker(2, [&](int& job) { seen.push_back(job); });
  for (int i = 0; i < 1000; ++i) worker.push(i);
  worker.drain();
  ASSERT_EQ(seen.size(), 1000u);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(seen[static_cast<size_t>(i)], i);
}

TEST(BoundedWorker, NoMoreThanTheBoundWait) {
  std::atomic<bool> release{false};
  std::atomic<int> started{0};
  BoundedWorker<int> worker(3, [&](int&) {
    ++started;
    while (!release) std::this_thread::yield();
  });
  std::atomic<int> pushed{0};
  std::thread producer([&] {
    for (int i = 0; i < 10; ++i) {
      worker.push(i);
      ++pushed;
    }
  });
  // One job running, three waiting: the fifth push blocks.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (pushed < 4 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(started.load(), 1);
  EXPECT_EQ(pushed.load(), 4);
  release = true;
  producer.join();
  worker.drain();
  EXPECT_EQ(started.load(), 10);
}

TEST(BoundedWorker, TheFirstErrorReachesTheProducerAndStopsTheWork) {
  std::atomic<int> ran{0};
  BoundedWorker<int> worker(4, [&](int& job) {
    ++ran;
    if (job == 2) throw std::runtime_error("disk full");
  });
  bool thrown = false;
  try {
    for (int i = 0; i < 100; ++i) worker.push(i);
    worker.drain();
  } catch (const std::runtime_error& error) {
    thrown = true;
    EXPECT_STREQ(error.what(), "disk full");
  }
  EXPECT_TRUE(thrown);
  EXPECT_THROW(worker.push(1000), std::runtime_error);
  EXPECT_THROW(worker.drain(), std::runtime_error);
  EXPECT_LT(ran.load(), 100);
}

TEST(BoundedWorker, DoneGetsEveryJobBackOnTheWorkerThread) {
  std::vector<int> done;
  {
    BoundedWorker<int> worker(
        2, [](int&) {}, [&](int& job) { done.push_back(job); });
    for (int i = 0; i < 50; ++i) worker.push(i);
  }  // the destructor runs what is queued
  EXPECT_EQ(done.size(), 50u);
}

}  // namespace
}  // namespace gpuscope
