#include "core/identity/collective_names.h"

#include <algorithm>
#include <string>

#include "core/db/sqlite_database.h"
#include "core/identity/hta_kernel_type.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {

std::vector<int64_t> collectiveNameIds(const Database& db) {
  std::vector<int64_t> ids;
  if (!db.hasTable(table::kStringIds)) return ids;
  // Every communication name starts with "nccl"; LIKE narrows the scan before the exact test.
  auto names = db.prepare("SELECT id, value FROM " + std::string(table::kStringIds) + " WHERE value LIKE 'nccl%'");
  while (names.step())
    if (htaKernelType(names.text(1)) == HtaKernelType::Communication) ids.push_back(names.int64(0));
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace gpuscope
