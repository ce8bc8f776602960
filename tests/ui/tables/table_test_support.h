#pragma once
// Helpers for the tests of views on a loaded trace: the transpose and loader2 fixtures, SQL on them, a
// kernel table on screen, and model checking.
#include <QAbstractItemModelTester>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/model/trace.h"
#include "ui/session/trace_session.h"
#include "ui/tables/kernel_table_view.h"

namespace gpuscope::ui::test {

// transpose.sqlite, loaded once for the whole test program.
std::shared_ptr<const Trace> transposeTrace();
// A copy of transpose.sqlite with the fixture's ncu metrics (transpose_ncu_metrics.csv), loaded once.
std::shared_ptr<const Trace> transposeWithMetricsTrace();
// loader2.sqlite (one short name, several kernels), loaded once.
std::shared_ptr<const Trace> loader2Trace();

int64_t sqlInt(const Trace& trace, const std::string& sql);
std::string sqlText(const Trace& trace, const std::string& sql);

// The event of KIND whose source rowid is ROW.
std::optional<EventRef> eventByRow(const Trace& trace, TrackKind kind, uint32_t row);

// SQL that follows " SELECT ...": the kernels (k) with their short (s) and demangled (d) names.
inline const std::string kKernelNameJoin =
    " FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName JOIN StringIds d ON d.id = "
    "k.demangledName";

// A kernel table of loader2Trace() on screen, 1000x600.
struct ShownKernelTable {
  TraceSession session;
  KernelTableView table{&session};
  ShownKernelTable();
  int rows() const;
};

// Runs QAbstractItemModelTester on MODEL while it lives, collecting the checks that fail.
class ModelCheck {
 public:
  explicit ModelCheck(QAbstractItemModel* model);
  ~ModelCheck();
  ModelCheck(const ModelCheck&) = delete;
  ModelCheck& operator=(const ModelCheck&) = delete;

  // Failed checks of every ModelCheck alive, since this one was made.
  QStringList failures() const;

 private:
  qsizetype firstFailure_ = 0;
  std::unique_ptr<QAbstractItemModelTester> tester_;
};

}  // namespace gpuscope::ui::test
