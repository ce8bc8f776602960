#pragma once
// The statements TraceWriter prepares for its row structs (trace_rows.h): which table each writes and the
// columns it binds, in binding order. Checked against the schema's declarations when prepared.
#include <string_view>
#include <vector>

namespace gpuscope {

// clang-format off
enum StatementId : int {
  kStringStmt, kKernelStmt, kApiStmt, kMemcpyStmt, kMemsetStmt, kSyncStmt, kNvtxStmt, kOsrtStmt,
  kProcessStmt, kThreadStmt, kGpuStmt, kStreamStmt, kSessionStmt, kExportStmt, kMetaStmt, kStatementCount
};
// clang-format on

struct InsertSpec {
  StatementId id;
  std::string_view table;
  std::vector<std::string_view> columns;  // bound in this order
};

const std::vector<InsertSpec>& insertSpecs();
// Throws std::logic_error when INSERT binds a column its table does not declare: a typo would otherwise only
// show at the first insert.
void checkColumns(const InsertSpec& insert);

}  // namespace gpuscope
