#include "ui/tables/stats_reports_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "core/query/event_find.h"
#include "core/stats/stats_reports.h"
#include "ui/session/trace_session.h"
#include "ui/tables/range_bar.h"
#include "ui/tables/report_pane.h"
#include "ui/tables/report_table_model.h"

namespace gpuscope::ui {
namespace {

QString text(std::string_view value) { return QString::fromUtf8(value.data(), static_cast<qsizetype>(value.size())); }

}  // namespace

StatsReportsView::StatsReportsView(TraceSession* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      chooser_(new QComboBox(this)),
      description_(new QLabel(this)),
      pane_(new ReportPane(this)) {
  for (const auto& report : statsReports()) {
    chooser_->addItem(text(report.name));
    chooser_->setItemData(chooser_->count() - 1, text(report.description), Qt::ToolTipRole);
  }
  int kernels = chooser_->findText(QStringLiteral("cuda_gpu_kern_sum"));
  if (kernels >= 0) chooser_->setCurrentIndex(kernels);
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Report:"), this));
  bar->addWidget(chooser_);
  bar->addWidget(description_, 1);
  rangeBar_ = new RangeBar(session_, tr("events"), this);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(bar);
  layout->addWidget(rangeBar_);
  layout->addWidget(pane_, 1);
  // The ruler's range restricts every report to the events that share time with it.
  auto applyRange = [this] {
    rangeBar_->update();
    pane_->setRange(rangeBar_->sessionRange());
  };
  connect(session_, &TraceSession::rangeChanged, this, applyRange);
  connect(session_, &TraceSession::timeBaseChanged, this, applyRange);
  connect(session_, &TraceSession::traceChanged, this, applyRange);
  connect(chooser_, &QComboBox::currentIndexChanged, this, &StatsReportsView::reload);
  connect(session_, &TraceSession::traceChanged, this, &StatsReportsView::reload);
  connect(pane_, &ReportPane::rowActivated, this, &StatsReportsView::focusRow);
  reload();
}

bool StatsReportsView::showReport(const QString& name) {
  int index = chooser_->findText(name);
  if (index < 0) return false;
  chooser_->setCurrentIndex(index);
  return true;
}

void StatsReportsView::reload() {
  description_->setText(chooser_->currentData(Qt::ToolTipRole).toString());
  pane_->setReport(session_->trace(), chooser_->currentText());
}

// The earliest event named as the row's "Name" cell (kernels by their demangled name too), if the report has one.
std::optional<EventRef> StatsReportsView::firstInstance(int row) const {
  const auto& trace = session_->trace();
  const ReportTable& report = pane_->model()->report();
  if (!trace || row < 0 || static_cast<size_t>(row) >= report.rows.size()) return std::nullopt;
  const auto& cells = report.rows[static_cast<size_t>(row)];
  for (size_t column = 0; column < report.columns.size() && column < cells.size(); ++column) {
    const auto* name = std::get_if<std::string>(&cells[column]);
    if (report.columns[column].title != "Name" || !name) continue;
    std::vector<bool> matching(trace->stringCount());
    for (StringId id = 0; id < matching.size(); ++id) matching[id] = trace->string(id) == *name;
    FindResult found = findEvents(trace->tracks(), matching);
    if (!found.empty()) return found[0];
  }
  return std::nullopt;
}

void StatsReportsView::focusRow(int row) {
  if (auto event = firstInstance(row)) session_->focusEvent(*event);
}

}  // namespace gpuscope::ui
