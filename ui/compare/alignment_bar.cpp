#include "ui/compare/alignment_bar.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <algorithm>
#include <cmath>
#include <set>

namespace gpuscope::ui {
namespace {

// Distinct kernel short names or NVTX texts of a trace.
void collectNames(const Trace& trace, TrackKind kind, std::set<std::string>& names) {
  std::vector<bool> seen(trace.stringCount());
  for (const auto& track : trace.tracks()) {
    if (track.kind != kind) continue;
    for (const auto& lane : track.lanes)
      for (StringId id : lane.name)
        if (id < seen.size() && !seen[id]) seen[id] = true;
  }
  for (StringId id = 0; id < seen.size(); ++id)
    if (seen[id]) names.insert(trace.string(id));
}

}  // namespace

QString anchorText(const AlignmentAnchor& anchor) {
  if (anchor.kind == AlignmentAnchor::Kind::Start) return QStringLiteral("start");
  QString kind = anchor.kind == AlignmentAnchor::Kind::Kernel ? QStringLiteral("kernel") : QStringLiteral("range");
  return QStringLiteral("%1 \"%2\" #%3").arg(kind, QString::fromStdString(anchor.name)).arg(anchor.index + 1);
}

AlignmentBar::AlignmentBar(std::shared_ptr<const Trace> a, std::shared_ptr<const Trace> b, QWidget* parent)
    : QFrame(parent), a_(std::move(a)), b_(std::move(b)) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(new QLabel(tr("Align B on A at"), this));
  anchorKind_ = new QComboBox(this);
  anchorKind_->addItem(tr("their starts"), static_cast<int>(AlignmentAnchor::Kind::Start));
  anchorKind_->addItem(tr("NVTX range"), static_cast<int>(AlignmentAnchor::Kind::NvtxRange));
  anchorKind_->addItem(tr("kernel"), static_cast<int>(AlignmentAnchor::Kind::Kernel));
  layout->addWidget(anchorKind_);
  anchorName_ = new QComboBox(this);
  anchorName_->setEditable(true);
  anchorName_->setInsertPolicy(QComboBox::NoInsert);
  anchorName_->setMinimumContentsLength(18);
  anchorName_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  layout->addWidget(anchorName_);
  layout->addWidget(new QLabel(tr("# in A"), this));
  indexA_ = new QSpinBox(this);
  indexA_->setRange(1, 1 << 30);
  indexA_->setToolTip(tr("Which instance in A, 1 being the first"));
  layout->addWidget(indexA_);
  layout->addWidget(new QLabel(tr("# in B"), this));
  indexB_ = new QSpinBox(this);
  indexB_->setRange(1, 1 << 30);
  indexB_->setToolTip(tr("Which instance in B, 1 being the first"));
  layout->addWidget(indexB_);
  layout->addWidget(new QLabel(tr("then shift B by"), this));
  shiftUs_ = new QDoubleSpinBox(this);
  shiftUs_->setRange(-1e9, 1e9);
  shiftUs_->setDecimals(3);
  shiftUs_->setSuffix(tr(" us"));
  shiftUs_->setToolTip(tr("Positive values move B later on A's clock"));
  layout->addWidget(shiftUs_);
  status_ = new QLabel(this);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // Wrapped, not as wide as its text: a long anchor name must not widen the window past the screen.
  status_->setWordWrap(true);
  status_->setMinimumWidth(160);
  layout->addWidget(status_, 1);

  auto changed = [this] {
    if (!updatingControls_) emit edited();
  };
  connect(anchorKind_, &QComboBox::currentIndexChanged, this, [this, changed] {
    if (updatingControls_) return;
    fillAnchorNames();
    changed();
  });
  connect(anchorName_, &QComboBox::currentTextChanged, this, changed);
  connect(indexA_, &QSpinBox::valueChanged, this, changed);
  connect(indexB_, &QSpinBox::valueChanged, this, changed);
  connect(shiftUs_, &QDoubleSpinBox::valueChanged, this, changed);
  fillAnchorNames();
}

void AlignmentBar::setControls(const AlignmentAnchor& anchorA, const AlignmentAnchor& anchorB, TimeNs shift) {
  updatingControls_ = true;
  anchorKind_->setCurrentIndex(anchorKind_->findData(static_cast<int>(anchorA.kind)));
  fillAnchorNames();
  if (anchorA.kind != AlignmentAnchor::Kind::Start) anchorName_->setCurrentText(QString::fromStdString(anchorA.name));
  indexA_->setValue(static_cast<int>(std::min<size_t>(anchorA.index + 1, 1u << 30)));
  indexB_->setValue(static_cast<int>(std::min<size_t>(anchorB.index + 1, 1u << 30)));
  shiftUs_->setValue(static_cast<double>(shift) / 1000.0);
  updatingControls_ = false;
}

AlignmentAnchor AlignmentBar::anchorA() const {
  AlignmentAnchor anchor;
  anchor.kind = static_cast<AlignmentAnchor::Kind>(anchorKind_->currentData().toInt());
  if (anchor.kind != AlignmentAnchor::Kind::Start) anchor.name = anchorName_->currentText().toStdString();
  // The boxes count from 1, as people do; anchors from 0.
  anchor.index = static_cast<size_t>(indexA_->value() - 1);
  return anchor;
}

AlignmentAnchor AlignmentBar::anchorB() const {
  AlignmentAnchor anchor = anchorA();
  anchor.index = static_cast<size_t>(indexB_->value() - 1);
  return anchor;
}

TimeNs AlignmentBar::shift() const { return static_cast<TimeNs>(std::llround(shiftUs_->value() * 1000.0)); }

void AlignmentBar::showApplied(const QString& text) {
  status_->setStyleSheet(QString());
  status_->setText(text);
}

void AlignmentBar::showRefused(const AlignmentAnchor& missing, bool missingFromA) {
  status_->setStyleSheet(QStringLiteral("color: #c62828"));
  status_->setText(
      tr("No %1 in %2; keeping the previous alignment").arg(anchorText(missing), missingFromA ? tr("A") : tr("B")));
}

void AlignmentBar::fillAnchorNames() {
  auto kind = static_cast<AlignmentAnchor::Kind>(anchorKind_->currentData().toInt());
  bool wasUpdating = updatingControls_;
  updatingControls_ = true;
  QString current = anchorName_->currentText();
  anchorName_->clear();
  bool named = kind != AlignmentAnchor::Kind::Start;
  anchorName_->setEnabled(named);
  indexA_->setEnabled(named);
  indexB_->setEnabled(named);
  if (named) {
    std::set<std::string> names;
    TrackKind trackKind = kind == AlignmentAnchor::Kind::Kernel ? TrackKind::GpuKernels : TrackKind::Nvtx;
    collectNames(*a_, trackKind, names);
    collectNames(*b_, trackKind, names);
    for (const auto& name : names) anchorName_->addItem(QString::fromStdString(name));
    int keep = anchorName_->findText(current);
    if (keep >= 0) anchorName_->setCurrentIndex(keep);
  }
  updatingControls_ = wasUpdating;
}

}  // namespace gpuscope::ui
