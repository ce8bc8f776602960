#include "ui/tables/nvtx_projection_view.h"

#include <QLabel>
#include <QVBoxLayout>
#include <string>
#include <variant>
#include <vector>

#include "core/query/event_find.h"
#include "ui/session/trace_session.h"
#include "ui/tables/range_bar.h"
#include "ui/tables/report_pane.h"
#include "ui/tables/report_table_model.h"

namespace gpuscope::ui {
namespace {

const QString kReport = QStringLiteral("nvtx_gpu_proj_sum");

// Whether an NVTX track is of DOMAIN, as the report names domains (empty: the default domain).
bool trackOfDomain(const Track& track, const std::string& domain) {
  if (track.kind != TrackKind::Nvtx) return false;
  if (domain.empty()) return track.nvtxDomain == 0;
  return track.label == "NVTX (" + domain + ")";
}

}  // namespace

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
  pane_->setReport(session_->trace(), kReport);
}

std::optional<EventRef> NvtxProjectionView::firstInstance(int row) const {
  const auto& trace = session_->trace();
  const auto& rows = pane_->model()->report().rows;
  if (!trace || row < 0 || static_cast<size_t>(row) >= rows.size() || rows[static_cast<size_t>(row)].empty())
    return std::nullopt;
  const auto* range = std::get_if<std::string>(&rows[static_cast<size_t>(row)][0]);
  if (!range) return std::nullopt;
  size_t colon = range->find(':');
  std::string domain = colon == std::string::npos ? std::string() : range->substr(0, colon);
  std::string name = colon == std::string::npos ? *range : range->substr(colon + 1);
  std::vector<bool> matching(trace->stringCount());
  for (StringId id = 0; id < matching.size(); ++id) matching[id] = trace->string(id) == name;
  // Matches come in start order, so the first on a track of the range's domain is the earliest instance.
  FindResult found = findEvents(trace->tracks(), matching);
  for (const EventRef& event : found.matches()) {
    if (trackOfDomain(trace->track(event.track), domain)) return event;
  }
  return std::nullopt;
}

void NvtxProjectionView::focusRange(int row) {
  if (auto event = firstInstance(row)) session_->focusEvent(*event);
}

}  // namespace gpuscope::ui
