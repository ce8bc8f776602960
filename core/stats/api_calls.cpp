#include "core/stats/api_calls.h"

#include <functional>

#include "core/model/global_id.h"
#include "core/schema/trace_schema.h"
#include "core/stats/stats_common.h"

namespace gpuscope {

ApiCallIndex::ApiCallIndex(const Database& db) {
  requireReportTable(db, table::kStringIds);
  requireReportTable(db, table::kRuntime);
  auto stmt = db.prepare(
      "SELECT start, end, globalTid, correlationId, nameId FROM CUPTI_ACTIVITY_KIND_RUNTIME "
      "WHERE globalTid IS NOT NULL AND correlationId IS NOT NULL");
  while (stmt.step()) {
    ApiCall call{stmt.int64(0), stmt.int64(1), stmt.int64(2), stmt.int64(4)};
    calls_.try_emplace(Key{global_id::processOf(call.globalTid), stmt.int64(3)}, call);
  }
  auto strings = db.prepare(
      "SELECT id, value FROM StringIds WHERE id IN (SELECT DISTINCT nameId FROM CUPTI_ACTIVITY_KIND_RUNTIME)");
  while (strings.step()) names_.emplace(strings.int64(0), displayApiName(strings.text(1)));
}

size_t ApiCallIndex::KeyHash::operator()(const Key& key) const noexcept {
  auto h = std::hash<int64_t>{}(key.correlationId);
  return h ^ (std::hash<int64_t>{}(key.process) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}

const ApiCall* ApiCallIndex::find(int64_t globalPid, int64_t correlationId) const {
  auto it = calls_.find(Key{globalPid, correlationId});
  return it == calls_.end() ? nullptr : &it->second;
}

const std::string& ApiCallIndex::name(const ApiCall& call) const {
  auto it = names_.find(call.nameId);
  return it == names_.end() ? unnamed_ : it->second;
}

}  // namespace gpuscope
