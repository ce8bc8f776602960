#include "collector/launch/window_files.h"

#include <chrono>
#include <filesystem>
#include <iostream>
#include <limits>

#include "collector/launch/recorded_tables.h"
#include "collector/transport/session_clock.h"
#include "core/error.h"

namespace gpuscope {
namespace fs = std::filesystem;

std::string numberedPath(const std::string& path, int number) {
  fs::path file(path);
  fs::path extension = file.extension();
  fs::path stem = file;
  stem.replace_extension();
  return stem.string() + "." + std::to_string(number) + (extension.empty() ? ".sqlite" : extension.string());
}

WindowFiles::WindowFiles(WindowNaming naming, WindowFileFacts facts, RecordSampling& sampling)
    : naming_(std::move(naming)), facts_(std::move(facts)), sampling_(sampling) {}

std::string WindowFiles::checkedPath(const std::string& path) const {
  fs::path file(path);
  if (!file.has_extension()) file += ".sqlite";
  std::error_code error;
  if (fs::is_directory(file, error)) throw TraceError(file.string() + " is a directory: give a file name with -o");
  if (fs::exists(file, error) && !naming_.forceOverwrite)
    throw TraceError(file.string() + " already exists: choose another name with -o, or add --force-overwrite");
  fs::path directory = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  if (!fs::is_directory(directory, error))
    throw TraceError("cannot write " + file.string() + ": its directory does not exist");
  return file.string();
}

void WindowFiles::setNextPath(const std::string& path) {
  std::string checked = checkedPath(path);
  std::lock_guard<std::mutex> guard(lock_);
  nextPath_ = checked;
}

std::string WindowFiles::nextPath() {
  std::lock_guard<std::mutex> guard(lock_);
  if (!nextPath_.empty()) return nextPath_;
  if (!naming_.numbered) return naming_.path;
  // Numbers already taken on disk are skipped, so a second session never overwrites the first one's files.
  for (;; ++nextNumber_) {
    std::string candidate = numberedPath(naming_.path, nextNumber_);
    std::error_code error;
    if (naming_.forceOverwrite || !fs::exists(candidate, error)) return candidate;
  }
}

void WindowFiles::setExitStatus(int status) {
  std::lock_guard<std::mutex> guard(lock_);
  exitStatus_ = status;
}

TraceWriter& WindowFiles::windowOpened(const WindowSpan& span, CaptureWindow& window) {
  std::string path = nextPath();
  {
    std::lock_guard<std::mutex> guard(lock_);
    nextPath_.clear();
    if (naming_.numbered) ++nextNumber_;
  }
  OpenFile file;
  file.output = std::make_unique<PartialOutput>(path);
  file.writer = std::make_unique<TraceWriter>(file.output->writingPath(), facts_.writer);
  if (facts_.delayNs > 0) window.begin = window.origin + facts_.delayNs;
  if (facts_.durationNs > 0) window.end = window.begin + facts_.durationNs;
  file.origin = window.origin;
  file.begin = window.begin;
  file.end = window.end;
  int64_t origin = window.origin;
  TraceWriter& writer = *file.writer;
  // The wall clock of trace time 0: now, less the session-clock time since the window opened.
  int64_t nowUtc =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  file.sessionStartUtcNs = nowUtc - (transport::sessionClockNs() - span.begin);
  writer.setSessionStart(file.sessionStartUtcNs);
  writer.addMeta("record_options", facts_.recordOptions);
  if (!facts_.kernelNameDemangler.empty()) writer.addMeta("kernel_name_demangler", facts_.kernelNameDemangler);
  writer.addMeta("clock_origin_ns", std::to_string(origin));
  writer.addMeta("capture_trigger", facts_.trigger);
  open_ = std::move(file);
  return writer;
}

void WindowFiles::windowClosed(const WindowSpan& span, const TraceDaemon& daemon) {
  std::string failure;
  WrittenWindow window;
  window.reason = span.reason;
  window.seconds = static_cast<double>(span.end - span.begin) / 1e9;
  window.counts = daemon.counts();
  window.transport = daemon.transportCounts();
  if (open_ && daemon.failed()) {
    failure = daemon.failure();
  } else if (open_ && span.reason != transport::WindowEndReason::Cancelled) {
    try {
      finishFile(span, daemon);
      window.path = open_->output->finalPath();
    } catch (const std::exception& error) {
      failure = "the trace " + open_->output->finalPath() + " could not be written (" + error.what() + ")";
      std::cerr << "gpuscope: " << failure << "\n";
    }
  }
  open_.reset();  // an unfinished or cancelled file is removed here
  std::lock_guard<std::mutex> guard(lock_);
  if (!window.path.empty()) written_.push_back(window);
  lastFailure_ = failure;
  ++closedWindows_;
  closed_.notify_all();
}

void WindowFiles::finishFile(const WindowSpan& span, const TraceDaemon& daemon) {
  TraceWriter& writer = *open_->writer;
  RecordCounts counts = daemon.counts();
  TransportCounts transport = daemon.transportCounts();
  std::optional<int> exitStatus;
  {
    std::lock_guard<std::mutex> guard(lock_);
    exitStatus = exitStatus_;
  }
  if (span.reason == transport::WindowEndReason::ProgramEnded && exitStatus)
    writer.addMeta("exit_status", std::to_string(*exitStatus));
  writer.addMeta("capture_end", span.reason == transport::WindowEndReason::ProgramEnded ? "program ended" : "stopped");
  writer.addMeta("records_dropped_rings", std::to_string(transport.ringDropped));
  writer.addMeta("records_dropped_cupti", std::to_string(counts.cuptiDropped));
  writer.addMeta("cuda_untraced_cupti_busy", std::to_string(transport.cuptiBusy));
  writer.addMeta("cuda_untraced_cupti_failed", std::to_string(transport.cuptiFailed));
  // CUDA processes whose last activity records were not flushed before the file was written.
  if (span.lateProcesses) writer.addMeta("cuda_flush_late_processes", std::to_string(span.lateProcesses));
  CaptureWindow window{open_->origin, open_->begin, std::min(open_->end, span.end ? span.end : open_->end)};
  sampling_.addMeta(writer);
  sampling_.writeTables(writer, window, daemon.osrtBacktraces());
  if (facts_.profiledMetrics) writeMetricRows(writer, daemon.kernelMetrics());
  writeRecordedRanks(writer, daemon.rankRows(), open_->sessionStartUtcNs, open_->output->finalPath());
  writer.finish();
  open_->output->commit();
}

std::vector<WrittenWindow> WindowFiles::written() const {
  std::lock_guard<std::mutex> guard(lock_);
  return written_;
}

uint64_t WindowFiles::closedWindows() const {
  std::lock_guard<std::mutex> guard(lock_);
  return closedWindows_;
}

uint64_t WindowFiles::waitForClose(uint64_t closed, int timeoutMs) const {
  std::unique_lock<std::mutex> guard(lock_);
  closed_.wait_for(guard, std::chrono::milliseconds(timeoutMs), [&] { return closedWindows_ > closed; });
  return closedWindows_;
}

std::string WindowFiles::lastFailure() const {
  std::lock_guard<std::mutex> guard(lock_);
  return lastFailure_;
}

}  // namespace gpuscope
