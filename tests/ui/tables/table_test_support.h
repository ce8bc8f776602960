#pragma once
// Helpers for the table and details tests: the transpose fixture, SQL on it, and model checking.
#include <QAbstractItemModelTester>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/model/trace.h"

namespace gpuscope::ui::test {

// transpose.sqlite, loaded once for the whole test program.
std::shared_ptr<const Trace> transposeTrace();

int64_t sqlInt(const Trace& trace, const std::string& sql);
std::string sqlText(const Trace& trace, const std::string& sql);

// The event of KIND whose source rowid is ROW.
std::optional<EventRef> eventByRow(const Trace& trace, TrackKind kind, uint32_t row);

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
