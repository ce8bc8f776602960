#include "ui/tables/stats_reports_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTreeView>
#include <QVBoxLayout>

#include "core/stats/stats_reports.h"
#include "ui/session/trace_session.h"
#include "ui/tables/range_bar.h"
#include "ui/tables/report_pane.h"
#include "ui/tables/report_row_event.h"
#include "ui/tables/report_table_model.h"
#include "ui/tables/table_proxy.h"

namespace gpuscope::ui {
namespace {

QString text(std::string_view value) { return QString::fromUtf8(value.data(), static_cast<qsizetype>(value.size())); }

}  // namespace

StatsReportsView::StatsReportsView(TraceSession* session, QWidget* parent)
    : QWidget(parent), session_(session), chooser_(new QComboBox(this)), pane_(new ReportPane(this)) {
  for (const auto& report : statsReports()) {
    chooser_->addItem(text(report.name));
    chooser_->setItemData(chooser_->count() - 1, text(report.description), Qt::ToolTipRole);
  }
  int kernels = chooser_->findText(QStringLiteral("cuda_gpu_kern_sum"));
  if (kernels >= 0) chooser_->setCurrentIndex(kernels);
  // The chooser shares the filter's row, and the report's description is the filter's placeholder: at
  // 1280x720 a row of its own cost the table two of its five rows.
  pane_->controlBar()->insertWidget(0, new QLabel(tr("Report:"), this));
  pane_->controlBar()->insertWidget(1, chooser_);
  rangeBar_ = new RangeBar(session_, tr("events"), this);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(rangeBar_);
  layout->addWidget(pane_, 1);
  // The ruler's range restricts every report to the events that share time with it.
  auto applyRange = [this] {
    pane_->setTimeBase(session_->timeOrigin(), session_->timeBase());
    rangeBar_->update();
    pane_->setRange(rangeBar_->sessionRange());
  };
  connect(session_, &TraceSession::rangeChanged, this, applyRange);
  connect(session_, &TraceSession::timeBaseChanged, this, applyRange);
  connect(session_, &TraceSession::traceChanged, this, applyRange);
  connect(chooser_, &QComboBox::currentIndexChanged, this, &StatsReportsView::reload);
  connect(session_, &TraceSession::traceChanged, this, &StatsReportsView::reload);
  connect(pane_, &ReportPane::rowActivated, this, &StatsReportsView::focusRow);
  connect(session_, &TraceSession::selectionChanged, this, &StatsReportsView::markSelection);
  connect(pane_, &ReportPane::reportReady, this, &StatsReportsView::markSelection);
  applyRange();
  reload();
}

bool StatsReportsView::showReport(const QString& name) {
  int index = chooser_->findText(name);
  if (index < 0) return false;
  chooser_->setCurrentIndex(index);
  return true;
}

void StatsReportsView::reload() {
  QString description = chooser_->currentData(Qt::ToolTipRole).toString();
  chooser_->setToolTip(description);
  pane_->filterEdit()->setPlaceholderText(tr("Filter rows of %1").arg(description));
  pane_->setReport(session_->trace(), chooser_->currentText());
}

std::optional<EventRef> StatsReportsView::eventOfRow(int row) const {
  const auto& trace = session_->trace();
  if (!trace || row < 0) return std::nullopt;
  return eventOfReportRow(*trace, pane_->model()->report(), static_cast<size_t>(row));
}

void StatsReportsView::focusRow(int row) {
  if (markingSelection_) return;
  if (auto event = eventOfRow(row)) session_->focusEvent(*event);
}

void StatsReportsView::markSelection() {
  const auto& trace = session_->trace();
  const auto& selected = session_->selection();
  if (!trace || !selected || pane_->isRunning()) return;
  auto row = reportRowOfEvent(*trace, pane_->model()->report(), *selected);
  if (!row) return;
  QModelIndex index = pane_->proxy()->mapFromSource(pane_->model()->index(static_cast<int>(*row), 0));
  if (!index.isValid() || index == pane_->view()->currentIndex()) return;
  markingSelection_ = true;
  pane_->view()->setCurrentIndex(index);
  pane_->view()->scrollTo(index, QAbstractItemView::PositionAtCenter);
  markingSelection_ = false;
}

}  // namespace gpuscope::ui
