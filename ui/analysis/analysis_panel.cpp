#include "ui/analysis/analysis_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>

#include "core/analysis/finding_format.h"
#include "core/report/report_table.h"
#include "ui/analysis/finding_focus.h"
#include "ui/analysis/finding_list_model.h"
#include "ui/analysis/range_verdict_model.h"
#include "ui/analysis/rank_verdict_model.h"
#include "ui/text.h"

namespace gpuscope::ui {
namespace {

constexpr int kEvidenceRows = 25;
constexpr int kPlaceLinks = 20;

QTableView* makeTable(QAbstractItemModel* model, const QString& name) {
  auto* view = new QTableView;
  view->setObjectName(name);
  view->setModel(model);
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setSelectionMode(QAbstractItemView::SingleSelection);
  view->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view->verticalHeader()->hide();
  view->setWordWrap(false);
  view->horizontalHeader()->setStretchLastSection(true);
  return view;
}

// The finding's evidence as people read it: nsys's "Start (ns)" timestamps become "Start (s)" counted from
// ORIGIN, the origin of the ruler and of the places listed under the table.
QString evidenceHtml(const ReportTable& evidence, TimeNs origin) {
  ReportTable table = evidenceForPeople(evidence, origin);
  QString html = QStringLiteral("<table cellspacing=0 cellpadding=3 border=1 style='border-collapse:collapse'><tr>");
  for (const ReportColumn& column : table.columns)
    html += QStringLiteral("<th>%1</th>").arg(QString::fromStdString(column.title).toHtmlEscaped());
  html += QStringLiteral("</tr>");
  for (size_t r = 0; r < table.rows.size() && r < kEvidenceRows; ++r) {
    html += QStringLiteral("<tr>");
    for (size_t c = 0; c < table.columns.size() && c < table.rows[r].size(); ++c) {
      html += QStringLiteral("<td>%1</td>")
                  .arg(QString::fromStdString(cellText(table.rows[r][c], table.columns[c])).toHtmlEscaped());
    }
    html += QStringLiteral("</tr>");
  }
  html += QStringLiteral("</table>");
  if (table.rows.size() > kEvidenceRows)
    html += QObject::tr("<p>... and %1 more rows (gpuscope analyze prints them all).</p>")
                .arg(table.rows.size() - kEvidenceRows);
  return html;
}

}  // namespace

QString verdictHtml(const Verdict& verdict) {
  QString sentence = QString::fromStdString(verdictSentence(verdict)).toHtmlEscaped();
  qsizetype colon = sentence.indexOf(QLatin1Char(':'));
  if (colon > 0) sentence = QStringLiteral("<b>%1</b>%2").arg(sentence.left(colon), sentence.mid(colon));
  return sentence + QStringLiteral(" <span style='color:#607080'>(class: %1)</span>")
                        .arg(QString::fromUtf8(bottleneckClassName(verdict.kind).data()));
}

namespace {

// Up to this many ranks show without scrolling; more scroll in the same height.
constexpr int kRanksShownWhole = 8;

// VIEW at least as tall as its header and its first ROWS rows, so a job of a few ranks reads whole at 720 px.
void fitRowsOf(QTableView* view, int rows) {
  int height = view->horizontalHeader()->sizeHint().height() + 2 * view->frameWidth();
  for (int row = 0; row < std::min(rows, view->model()->rowCount()); ++row) height += view->rowHeight(row);
  view->setMinimumHeight(height);
}

}  // namespace

QString ranksVerdictHtml(const AnalysisReport& report) {
  return QObject::tr(
             "<b>Per rank</b>: %1 (each judged on its own host thread and GPU work, in the table below, with its "
             "findings under it). "
             "<span style='color:#607080'>All ranks together, on one host thread: %2</span>")
      .arg(QString::fromStdString(rankHeadline(report.ranks)).toHtmlEscaped(),
           QString::fromStdString(verdictSentence(report.run)).toHtmlEscaped());
}

QString judgedWindowHtml(const AnalysisReport& report) {
  if (!report.run.judged) return {};
  auto escaped = [](const std::string& text) { return QString::fromStdString(text).toHtmlEscaped(); };
  QString html =
      QObject::tr("<a href='judged:'>Judged window</a>: %1").arg(escaped(judgedWindowSentence(*report.run.judged)));
  std::string startup = startupSentence(report.run.startup, report.run.evidence.hostThread);
  if (!startup.empty()) html += QStringLiteral("<br>") + escaped(startup);
  return html + QStringLiteral("<br><span style='color:#607080'>%1</span>")
                    .arg(escaped(windowFiguresSentence(report.figures)));
}

AnalysisPanel::AnalysisPanel(TraceSession* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      verdict_(new QLabel),
      window_(new QLabel),
      details_(new QTextBrowser),
      findings_(new FindingListModel(this)),
      ranges_(new RangeVerdictModel(this)),
      ranks_(new RankVerdictModel(this)) {
  setObjectName(QStringLiteral("analysisPanel"));
  verdict_->setObjectName(QStringLiteral("verdictLabel"));
  verdict_->setWordWrap(true);
  verdict_->setTextFormat(Qt::RichText);
  verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  verdict_->setMargin(8);
  QFont larger = verdict_->font();
  larger.setPointSizeF(larger.pointSizeF() * 1.15);
  verdict_->setFont(larger);
  window_->setObjectName(QStringLiteral("verdictWindowLabel"));
  window_->setWordWrap(true);
  window_->setTextFormat(Qt::RichText);
  window_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
  window_->setContentsMargins(8, 0, 8, 8);
  findingsView_ = makeTable(findings_, QStringLiteral("findingsView"));
  // The summary takes the width left; the other columns fit their text.
  findingsView_->horizontalHeader()->setStretchLastSection(false);
  findingsView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  findingsView_->horizontalHeader()->setSectionResizeMode(FindingListModel::Summary, QHeaderView::Stretch);
  findingsView_->setColumnHidden(FindingListModel::Rank, true);
  rangesView_ = makeTable(ranges_, QStringLiteral("rangeVerdictsView"));
  rangesView_->horizontalHeader()->setStretchLastSection(false);
  rangesView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  ranksView_ = makeTable(ranks_, QStringLiteral("rankVerdictsView"));
  ranksView_->horizontalHeader()->setStretchLastSection(false);
  ranksView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  details_->setObjectName(QStringLiteral("findingDetails"));
  details_->setOpenLinks(false);

  auto* splitter = new QSplitter(Qt::Vertical);
  splitter->addWidget(ranksView_);
  splitter->addWidget(findingsView_);
  splitter->addWidget(details_);
  splitter->addWidget(rangesView_);
  // The findings first: at 1280x720 under a long verdict they get six rows or so, the details the rest.
  splitter->setSizes({110, 360, 300, 120});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(verdict_);
  layout->addWidget(window_);
  layout->addWidget(splitter, 1);
  // Every jump to a place shows the timeline there (a single click on a finding only reads its details).
  connect(window_, &QLabel::linkActivated, this, [this] {
    showJudgedWindow();
    emit showTimelineRequested();
  });

  connect(findingsView_, &QTableView::clicked, this, [this](const QModelIndex& index) { pickFinding(index.row()); });
  connect(findingsView_, &QTableView::activated, this, [this](const QModelIndex& index) {
    pickFinding(index.row());
    emit showTimelineRequested();
  });
  connect(details_, &QTextBrowser::anchorClicked, this, &AnalysisPanel::onPlaceLink);
  connect(rangesView_, &QTableView::clicked, this, [this](const QModelIndex& index) { pickRange(index.row()); });
  connect(rangesView_, &QTableView::activated, this, [this](const QModelIndex& index) {
    pickRange(index.row());
    emit showTimelineRequested();
  });
  connect(ranksView_, &QTableView::clicked, this, [this](const QModelIndex& index) { pickRank(index.row()); });
  connect(ranksView_, &QTableView::activated, this, [this](const QModelIndex& index) {
    pickRank(index.row());
    emit showTimelineRequested();
  });
  connect(session_, &TraceSession::traceChanged, this, [this] { setStatus(tr("Analyzing...")); });
  setStatus(tr("Open a trace to analyze it."));
}

void AnalysisPanel::setStatus(const QString& status) {
  report_.reset();
  findings_->setReport(nullptr);
  ranges_->setReport(nullptr);
  ranks_->setReport(nullptr);
  verdict_->setText(status.toHtmlEscaped());
  window_->clear();
  window_->hide();
  details_->clear();
  rangesView_->hide();
  ranksView_->hide();
}

void AnalysisPanel::setReport(std::shared_ptr<const AnalysisReport> report) {
  if (!report) {
    setStatus(tr("No analysis."));
    return;
  }
  report_ = std::move(report);
  findings_->setReport(report_);
  ranges_->setReport(report_);
  ranks_->setReport(report_);
  verdict_->setText(report_->ranks.empty() ? verdictHtml(report_->run) : ranksVerdictHtml(*report_));
  window_->setText(judgedWindowHtml(*report_));
  window_->setVisible(!window_->text().isEmpty());
  rangesView_->setVisible(!report_->nvtx.empty());
  ranksView_->setVisible(!report_->ranks.empty());
  findingsView_->setColumnHidden(FindingListModel::Rank, report_->ranks.empty());
  fitRowsOf(ranksView_, kRanksShownWhole);
  // The finding with the most at stake shows its details at once; the timeline moves only when the user picks one.
  if (findings_->rowCount() == 0) {
    details_->setHtml(tr("<p>No rule found anything to report.</p>"));
  } else {
    findingsView_->selectRow(0);
    showDetails(*findings_->finding(0), 0);
  }
}

void AnalysisPanel::pickFinding(int row, int place) {
  const Finding* finding = findings_->finding(row);
  if (!finding) return;
  findingsView_->selectRow(row);
  showDetails(*finding, row);
  if (place < 0) {
    std::vector<size_t> places = placesPreferring(*finding, judgedWindowOf(row));
    if (!places.empty()) place = static_cast<int>(places.front());
  }
  if (place >= 0 && place < static_cast<int>(finding->ranges.size()))
    focusFindingRange(*session_, finding->ranges[static_cast<size_t>(place)]);
}

std::optional<TimeInterval> AnalysisPanel::judgedWindowOf(int findingRow) const {
  if (const RankVerdict* rank = findings_->rankOf(findingRow))
    return TimeInterval{rank->verdict.evidence.windowStart, rank->verdict.evidence.windowEnd};
  if (report_ && report_->run.judged) return report_->run.judged->window;
  return std::nullopt;
}

void AnalysisPanel::pickRange(int row) {
  if (!report_ || row < 0 || row >= static_cast<int>(report_->nvtx.size())) return;
  const VerdictEvidence& e = report_->nvtx[static_cast<size_t>(row)].verdict.evidence;
  FindingRange span;
  span.start = e.windowStart;
  span.end = e.windowEnd;
  focusFindingRange(*session_, span);
}

void AnalysisPanel::pickRank(int row) {
  const RankVerdict* rank = ranks_->rank(row);
  if (!rank) return;
  ranksView_->selectRow(row);
  // The rank's findings come into view under it, its first one's details shown.
  int first = findings_->firstRowOfRank(row);
  if (first >= 0) {
    findingsView_->selectRow(first);
    findingsView_->scrollTo(findings_->index(first, 0), QAbstractItemView::PositionAtTop);
    showDetails(*findings_->finding(first), first);
  }
  FindingRange span;
  span.start = rank->verdict.evidence.windowStart;
  span.end = rank->verdict.evidence.windowEnd;
  focusFindingRange(*session_, span);
}

void AnalysisPanel::showJudgedWindow() {
  if (!report_ || !report_->run.judged) return;
  FindingRange span;
  span.start = report_->run.judged->window.start;
  span.end = report_->run.judged->window.end;
  focusFindingRange(*session_, span);
}

void AnalysisPanel::showDetails(const Finding& finding, int row) {
  const RankVerdict* rank = findings_->rankOf(row);
  QString of = rank ? QString::fromStdString(rank->label).toHtmlEscaped() + QStringLiteral(": ") : QString();
  QString html = QStringLiteral("<h3>%1%2 <span style='color:#607080'>(%3, %4)</span></h3>")
                     .arg(of, QString::fromStdString(finding.title).toHtmlEscaped(),
                          QString::fromStdString(finding.ruleId), QString::fromUtf8(severityName(finding.severity)));
  if (finding.atStakeNs > 0)
    html += tr("<p><b>At stake:</b> %1 of the judged window.</p>").arg(durationText(finding.atStakeNs));
  html += QStringLiteral("<p>%1</p>").arg(QString::fromStdString(finding.explanation).toHtmlEscaped());
  if (!finding.suggestion.empty())
    html += tr("<p><b>Suggestion:</b> %1</p>").arg(QString::fromStdString(finding.suggestion).toHtmlEscaped());
  html += evidenceHtml(finding.evidence, session_->timeOrigin());
  if (!finding.ranges.empty()) {
    html +=
        tr("<p><b>Places</b>, those in the judged window first (a click shows the timeline there and picks "
           "the place on the ruler):</p><p>");
    TimeNs origin = session_->timeOrigin();
    std::vector<size_t> places = placesPreferring(finding, judgedWindowOf(row));
    for (size_t k = 0; k < places.size() && k < kPlaceLinks; ++k) {
      size_t i = places[k];
      const FindingRange& range = finding.ranges[i];
      // No-break spaces: a link breaking between a number and its unit reads as two places.
      QString text =
          QStringLiteral("%1 +%2").arg(durationText(range.start - origin), durationText(range.end - range.start));
      html += QStringLiteral("<a href='place:%1/%2'>%3</a> &nbsp; ")
                  .arg(row)
                  .arg(i)
                  .arg(text.toHtmlEscaped().replace(QChar(' '), QStringLiteral("&nbsp;")));
    }
    html += QStringLiteral("</p>");
  }
  details_->setHtml(html);
}

void AnalysisPanel::onPlaceLink(const QUrl& link) {
  QStringList parts = link.path().split(QLatin1Char('/'));
  if (link.scheme() != QLatin1String("place") || parts.size() != 2) return;
  const Finding* finding = findings_->finding(parts[0].toInt());
  int place = parts[1].toInt();
  if (!finding || place < 0 || place >= static_cast<int>(finding->ranges.size())) return;
  focusFindingRange(*session_, finding->ranges[static_cast<size_t>(place)]);
  emit showTimelineRequested();
}

}  // namespace gpuscope::ui
