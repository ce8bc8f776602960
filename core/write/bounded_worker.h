#pragma once
// BoundedWorker: one thread that runs a function on the jobs handed to it, in order, with at most
// a fixed number of jobs waiting: push() blocks beyond that, so memory stays bounded however far
// the producer runs ahead. The one queue of the record path (RowPipeline's rows, TableLane's
// GPU-table inserts).
//
// Errors: the first exception the function throws is kept, every job still waiting is dropped,
// and push() and drain() rethrow it from then on (a disk-full write fails the producer at once
// instead of silently discarding what comes after).
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

namespace gpuscope {

template <typename Job>
class BoundedWorker {
 public:
  using Work = std::function<void(Job&)>;
  // WORK runs on the worker thread for each job; DONE (may be empty) then gets the job back on the
  // same thread, written or not, for instance to recycle its buffers.
  BoundedWorker(size_t maxQueued, Work work, Work done = {})
      : maxQueued_(maxQueued), work_(std::move(work)), done_(std::move(done)), thread_([this] { run(); }) {}
  ~BoundedWorker() { stop(); }
  BoundedWorker(const BoundedWorker&) = delete;
  BoundedWorker& operator=(const BoundedWorker&) = delete;

  // Queues JOB, waiting while maxQueued jobs wait. Rethrows the worker's error.
  void push(Job job) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return queue_.size() < maxQueued_ || error_; });
    if (error_) std::rethrow_exception(error_);
    queue_.push_back(std::move(job));
    lock.unlock();
    changed_.notify_all();
  }

  // Returns once every job pushed so far has run. Rethrows the worker's error.
  void drain() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return (queue_.empty() && !working_) || error_; });
    if (error_) std::rethrow_exception(error_);
  }

  // Runs what is queued (unless an error stopped the worker) and ends the thread. Idempotent.
  void stop() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }

  std::exception_ptr error() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return error_;
  }

 private:
  void run() {
    for (;;) {
      Job job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [&] { return !queue_.empty() || stopping_; });
        if (queue_.empty()) return;
        job = std::move(queue_.front());
        queue_.pop_front();
        working_ = true;
      }
      changed_.notify_all();
      std::exception_ptr error;
      try {
        work_(job);
      } catch (...) {
        error = std::current_exception();
      }
      if (done_) done_(job);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (error && !error_) error_ = error;
        if (error_) queue_.clear();
        working_ = false;
      }
      changed_.notify_all();
    }
  }

  size_t maxQueued_;
  Work work_;
  Work done_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Job> queue_;
  bool working_ = false;
  bool stopping_ = false;
  std::exception_ptr error_;
  std::thread thread_;  // last: started once everything above exists
};

}  // namespace gpuscope
