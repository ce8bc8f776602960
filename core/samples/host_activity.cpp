#include "core/samples/host_activity.h"

#include <algorithm>
#include <numeric>

#include "core/db/sqlite_database.h"
#include "core/model/global_id.h"
#include "core/model/trace.h"
#include "core/samples/sample_reader.h"
#include "core/schema/table_names.h"

namespace gpuscope {
namespace {

size_t indexOf(ThreadActivity activity) { return static_cast<size_t>(activity); }

void fillStates(ThreadActivityColumns& thread, const std::vector<ThreadStateSpan>& spans) {
  const size_t n = spans.size();
  thread.spanStart.reserve(n);
  thread.spanEnd.reserve(n);
  thread.activity.reserve(n);
  for (auto& before : thread.before) {
    before.reserve(n + 1);
    before.push_back(0);
  }
  for (const ThreadStateSpan& span : spans) {
    // readThreadStates gives them in order, each ending where the next begins; a hostile file's
    // records cannot make them overlap, but keep the columns sorted whatever it holds.
    TimeNs start = thread.spanEnd.empty() ? span.time.start : std::max(span.time.start, thread.spanEnd.back());
    TimeNs end = std::max(start, span.time.end);
    thread.spanStart.push_back(start);
    thread.spanEnd.push_back(end);
    thread.activity.push_back(span.activity);
    for (size_t a = 0; a < kThreadActivityCount; ++a)
      thread.before[a].push_back(thread.before[a].back() + (indexOf(span.activity) == a ? end - start : 0));
  }
}

}  // namespace

int64_t ThreadActivityColumns::timeBefore(size_t activityIndex, TimeNs t) const {
  // Spans starting at or before T: the last of them may hold T.
  size_t i = static_cast<size_t>(std::upper_bound(spanStart.begin(), spanStart.end(), t) - spanStart.begin());
  if (i == 0) return 0;
  size_t last = i - 1;
  int64_t total = before[activityIndex][last];
  if (indexOf(activity[last]) == activityIndex) total += std::min(t, spanEnd[last]) - spanStart[last];
  return total;
}

void ThreadActivityColumns::timeBeforeEach(TimeNs t, ActivityTimes& out) const {
  size_t i = static_cast<size_t>(std::upper_bound(spanStart.begin(), spanStart.end(), t) - spanStart.begin());
  for (size_t a = 0; a < kThreadActivityCount; ++a) out[a] = i == 0 ? 0 : before[a][i - 1];
  if (i > 0) out[indexOf(activity[i - 1])] += std::min(t, spanEnd[i - 1]) - spanStart[i - 1];
}

// The edge between columns K - 1 and K.
static TimeNs columnEdge(TimeNs start, double nsPerColumn, size_t k) {
  return start + static_cast<TimeNs>(std::llround(static_cast<double>(k) * nsPerColumn));
}

void ThreadActivityColumns::timePerColumn(TimeNs start, double nsPerColumn, size_t columns,
                                          std::vector<ActivityTimes>& out) const {
  out.assign(columns, ActivityTimes{});
  if (spanStart.empty() || columns == 0) return;
  // Columns wholly before the first span or after the last stay empty without a search.
  ActivityTimes left{};
  ActivityTimes right{};
  timeBeforeEach(columnEdge(start, nsPerColumn, 0), left);
  for (size_t k = 0; k < columns; ++k) {
    TimeNs to = columnEdge(start, nsPerColumn, k + 1);
    if (to <= spanStart.front()) continue;
    if (columnEdge(start, nsPerColumn, k) >= spanEnd.back()) break;
    timeBeforeEach(to, right);
    for (size_t a = 0; a < kThreadActivityCount; ++a) out[k][a] = right[a] - left[a];
    left = right;
  }
}

void ThreadActivityColumns::samplesPerColumn(TimeNs start, double nsPerColumn, size_t columns,
                                             std::vector<uint32_t>& out) const {
  out.assign(columns, 0);
  auto first = std::lower_bound(sampleTime.begin(), sampleTime.end(), columnEdge(start, nsPerColumn, 0));
  for (size_t k = 0; k < columns && first != sampleTime.end(); ++k) {
    auto last = std::lower_bound(first, sampleTime.end(), columnEdge(start, nsPerColumn, k + 1));
    out[k] = static_cast<uint32_t>(last - first);
    first = last;
  }
}

std::optional<size_t> ThreadActivityColumns::spanAt(TimeNs t) const {
  size_t i = static_cast<size_t>(std::upper_bound(spanStart.begin(), spanStart.end(), t) - spanStart.begin());
  if (i == 0 || t >= spanEnd[i - 1]) return std::nullopt;
  return i - 1;
}

int64_t ThreadActivityColumns::timeIn(ThreadActivity which, TimeNs from, TimeNs to) const {
  if (to <= from || spanStart.empty()) return 0;
  size_t a = indexOf(which);
  return timeBefore(a, to) - timeBefore(a, from);
}

std::pair<size_t, size_t> ThreadActivityColumns::samplesIn(TimeNs from, TimeNs to) const {
  auto first = std::lower_bound(sampleTime.begin(), sampleTime.end(), from);
  auto last = std::lower_bound(first, sampleTime.end(), std::max(from, to));
  return {static_cast<size_t>(first - sampleTime.begin()), static_cast<size_t>(last - sampleTime.begin())};
}

std::optional<size_t> ThreadActivityColumns::nearestSample(TimeNs t, TimeNs within) const {
  size_t i = static_cast<size_t>(std::lower_bound(sampleTime.begin(), sampleTime.end(), t) - sampleTime.begin());
  std::optional<size_t> best;
  TimeNs bestDistance = within;
  for (size_t k : {i - 1, i}) {  // i - 1 wraps past the end when i is 0
    if (k >= sampleTime.size()) continue;
    TimeNs distance = sampleTime[k] > t ? sampleTime[k] - t : t - sampleTime[k];
    if (distance <= bestDistance) {
      best = k;
      bestDistance = distance;
    }
  }
  return best;
}

int64_t HostActivity::keyOf(int64_t globalTid) {
  return global_id::make(global_id::hw(globalTid), 0, global_id::pid(globalTid), global_id::tid(globalTid));
}

const ThreadActivityColumns* HostActivity::thread(int64_t globalTid) const {
  auto found = byKey_.find(keyOf(globalTid));
  return found == byKey_.end() ? nullptr : &threads_[found->second];
}

HostActivity HostActivity::read(const Database& db) {
  HostActivity host;
  auto threadFor = [&host](int64_t globalTid) -> ThreadActivityColumns& {
    auto [it, added] = host.byKey_.try_emplace(keyOf(globalTid), host.threads_.size());
    if (added) {
      host.threads_.emplace_back();
      host.threads_.back().globalTid = globalTid;
    }
    return host.threads_[it->second];
  };
  if (db.hasTable(table::kSchedEvents)) {
    ThreadStateRead states = readThreadStates(db);
    for (const ThreadStates& one : states.threads) {
      ThreadActivityColumns& thread = threadFor(one.globalTid);
      if (thread.before[0].empty()) fillStates(thread, one.spans);
    }
  }
  if (db.hasTable(table::kCompositeEvents)) {
    host.samples_ = std::move(readCpuSamples(db).samples);
    const CpuSamples& samples = host.samples_;
    std::vector<uint32_t> order(samples.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return samples.start[a] < samples.start[b]; });
    for (uint32_t s : order) {
      ThreadActivityColumns& thread = threadFor(samples.globalTid[s]);
      thread.sampleTime.push_back(samples.start[s]);
      thread.sampleIndex.push_back(s);
    }
  }
  // The names of the threads, for those that have no other rows to be named by (ThreadNames).
  if (!host.threads_.empty() && db.hasTable("ThreadNames") && db.hasTable("StringIds")) {
    auto names = db.prepare(
        "SELECT t.globalTid, s.value FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId "
        "WHERE t.globalTid IS NOT NULL");
    while (names.step()) {
      auto found = host.byKey_.find(keyOf(names.int64(0)));
      if (found != host.byKey_.end() && !names.isNull(1)) host.threads_[found->second].name = names.text(1);
    }
  }
  // Threads with no state and no sample have nothing to show.
  for (ThreadActivityColumns& thread : host.threads_) {
    if (!thread.before[0].empty()) continue;
    for (auto& before : thread.before) before.push_back(0);
  }
  return host;
}

const HostActivity& hostActivity(const Trace& trace) {
  return trace.memo<HostActivity>([&trace] {
    try {
      if (trace.hasDatabase()) return HostActivity::read(trace.database());
    } catch (const std::exception&) {
      // a hostile or damaged sampling table: the timeline shows no states
    }
    return HostActivity{};
  });
}

}  // namespace gpuscope
