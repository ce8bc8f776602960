#include "ui/tables/nvtx_projection_view.h"

#include <QLabel>
#include <QVBoxLayout>

#include "core/analysis/verdict/judged_window.h"
#include "core/db/sqlite_database.h"
#include "ui/session/trace_session.h"
#include "ui/tables/range_bar.h"
#include "ui/tables/report_pane.h"
#include "ui/tables/report_row_event.h"
#include "ui/tables/report_table_model.h"

namespace gpuscope::ui {
namespace {

const QString kReport = QStringLiteral("nvtx_gpu_proj_sum");

}  // namespace

NvtxProjectionGroups groupedByStepName(const NvtxProjectionGroups& groups) {
  NvtxProjectionGroups grouped;
  for (const auto& [key, group] : groups) {
    // "domain:text": the domain's own name stays as it is.
    const size_t colon = key.first.find(':');
    const size_t text = colon == std::string::npos ? 0 : colon + 1;
    std::string name = key.first.substr(0, text) + stepGroupName(std::string_view(key.first).substr(text));
    NvtxProjectionGroup& into = grouped[{std::move(name), key.second}];
    into.projected.insert(into.projected.end(), group.projected.begin(), group.projected.end());
    into.rangeTime += group.rangeTime;
    into.operations += group.operations;
    into.levels += group.levels;
    into.children += group.children;
  }
  return grouped;
}

NvtxProjectionView::NvtxProjectionView(TraceSession* session, QWidget* parent)
    : QWidget(parent), session_(session), pane_(new ReportPane(this)) {
  auto* intro = new QLabel(tr("GPU time of the work launched inside each NVTX range: a range's projection runs from "
                              "the start of its first GPU operation to the end of its last. Double-click a range "
                              "to select its first instance."),
                           this);
  intro->setWordWrap(true);
  rangeBar_ = new RangeBar(session_, tr("NVTX ranges and GPU work"), this);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro);
  layout->addWidget(rangeBar_);
  layout->addWidget(pane_, 1);
  // The ruler's range restricts the report to the events that share time with it.
  auto applyRange = [this] {
    pane_->setTimeBase(session_->timeOrigin(), session_->timeBase());
    rangeBar_->update();
    pane_->setRange(rangeBar_->sessionRange());
  };
  connect(session_, &TraceSession::rangeChanged, this, applyRange);
  connect(session_, &TraceSession::timeBaseChanged, this, applyRange);
  connect(session_, &TraceSession::traceChanged, this, [this, applyRange] {
    pane_->setReport(session_->trace(), kReport);
    applyRange();
  });
  connect(pane_, &ReportPane::rowActivated, this, &NvtxProjectionView::focusRange);
  pane_->setTableMaker([](Database& db) { return nvtxGpuProjTable(groupedByStepName(nvtxProjectionGroups(db))); });
  pane_->setReport(session_->trace(), kReport);
  applyRange();
}

std::optional<EventRef> NvtxProjectionView::firstInstance(int row) const {
  const auto& trace = session_->trace();
  if (!trace || row < 0) return std::nullopt;
  return eventOfReportRow(*trace, pane_->model()->report(), static_cast<size_t>(row));
}

void NvtxProjectionView::focusRange(int row) {
  if (auto event = firstInstance(row)) session_->focusEvent(*event);
}

}  // namespace gpuscope::ui
