#include "core/analysis/analysis_window.h"

#include <algorithm>

#include "core/error.h"
#include "core/model/global_id.h"
#include "core/schema/nsys_enums.h"

namespace gpuscope {
namespace {

struct NvtxSpec {
  std::string name;
  std::string domain;  // empty: any domain
  int64_t index = 1;
};

NvtxSpec parseNvtxSpec(const std::string& text) {
  NvtxSpec spec;
  std::string rest = text;
  size_t slash = rest.rfind('/');
  if (slash != std::string::npos) {
    std::string index = rest.substr(slash + 1);
    bool digits =
        !index.empty() && std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits || index.size() > 9 || std::stoll(index) < 1) {
      throw TraceError("The nvtx option takes name[@domain][/index] with an index of 1 or more, not '" + text + "'.");
    }
    spec.index = std::stoll(index);
    rest = rest.substr(0, slash);
  }
  size_t at = rest.rfind('@');
  if (at != std::string::npos) {
    spec.domain = rest.substr(at + 1);
    rest = rest.substr(0, at);
  }
  spec.name = rest;
  return spec;
}

// The [start, end] of the INDEX-th (by start) NVTX push/pop or start/end range named NAME.
AnalysisWindow nvtxWindow(const Database& db, const NvtxSpec& spec) {
  if (!db.hasTable("NVTX_EVENTS"))
    throw TraceError("This file has no NVTX_EVENTS table, so nvtx= cannot select a range.");
  bool hasTextId = db.hasTable("StringIds");
  std::string text = hasTextId ? "coalesce(n.text, s.value)" : "n.text";
  std::string join = hasTextId ? " LEFT JOIN StringIds s ON s.id = n.textId" : "";
  std::string domainFilter;
  if (!spec.domain.empty()) {
    domainFilter = " AND n.domainId IN (SELECT domainId FROM NVTX_EVENTS WHERE eventType = " +
                   std::to_string(nsys_enum::kNvtxDomainCreate) + " AND text = ?2)";
  }
  auto statement = db.prepare(
      "SELECT n.start, n.end FROM NVTX_EVENTS n" + join + " WHERE n.eventType IN (" +
      std::to_string(nsys_enum::kNvtxPushPopRange) + ", " + std::to_string(nsys_enum::kNvtxStartEndRange) + ") AND " +
      text + " = ?1 AND n.end IS NOT NULL" + domainFilter + " ORDER BY n.start, n.end LIMIT 1 OFFSET ?3");
  statement.bind(1, spec.name);
  if (!spec.domain.empty()) statement.bind(2, spec.domain);
  statement.bind(3, spec.index - 1);
  if (!statement.step()) {
    throw TraceError("The trace has no NVTX range '" + spec.name + "'" +
                     (spec.domain.empty() ? "" : " in domain '" + spec.domain + "'") +
                     (spec.index > 1 ? " numbered " + std::to_string(spec.index) : "") + ".");
  }
  AnalysisWindow window;
  window.begin = statement.int64(0);
  window.end = statement.int64(1);
  return window;
}

}  // namespace

bool AnalysisWindow::holdsProcess(int64_t globalId) const {
  return processes.empty() || std::binary_search(processes.begin(), processes.end(), global_id::processOf(globalId));
}

std::string AnalysisWindow::sqlCondition(const std::string& prefix, std::string_view idColumn) const {
  std::string condition = "1";
  if (begin != INT64_MIN) condition += " AND " + prefix + "start >= " + std::to_string(begin);
  if (end != INT64_MAX) condition += " AND " + prefix + "end <= " + std::to_string(end);
  if (!processes.empty()) {
    // The process part of a global id is what is left above the thread field.
    std::string shift = " >> " + std::to_string(global_id::kPidShift);
    std::string list;
    for (int64_t process : processes)
      list += (list.empty() ? "" : ", ") + std::to_string(process >> global_id::kPidShift);
    condition += " AND (" + prefix + std::string(idColumn) + shift + ") IN (" + list + ")";
  }
  return condition;
}

AnalysisWindow analysisWindow(const Database& db, const RuleOptions& options) {
  AnalysisWindow window;
  if (!options.text("start").empty()) window.begin = options.integer("start");
  if (!options.text("end").empty()) window.end = options.integer("end");
  if (!options.text("nvtx").empty()) {
    AnalysisWindow range = nvtxWindow(db, parseNvtxSpec(options.text("nvtx")));
    window.begin = std::max(window.begin, range.begin);
    window.end = std::min(window.end, range.end);
  }
  if (window.begin > window.end) throw TraceError("The analysis range is empty: start is after end.");
  const RuleScope& scope = options.scope();
  window.processes = scope.processes;
  if (scope.window) {
    window.begin = std::max(window.begin, scope.window->start);
    window.end = std::max(window.begin, std::min(window.end, scope.window->end));
  }
  return window;
}

}  // namespace gpuscope
