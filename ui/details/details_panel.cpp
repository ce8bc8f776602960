#include "ui/details/details_panel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPalette>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "core/details/kernel_roofline.h"
#include "core/details/sample_details.h"
#include "core/roofline/roofline_chart.h"
#include "ui/details/memory_event_details.h"
#include "ui/details/wrapped_text_delegate.h"
#include "ui/session/trace_session.h"

namespace gpuscope::ui {
namespace {

constexpr int kLinkRole = Qt::UserRole + 1;  // index into links_, on link fields' value column

QString text(const std::string& value) { return QString::fromStdString(value); }

// A name that can wrap inside the pane: a zero-width space after each '_', ',', ':' or '<' gives a long
// C++ or CUTLASS kernel name break points, so it wraps instead of widening the pane.
QString wrappable(const std::string& value) {
  QString wrapped;
  for (QChar c : text(value)) {
    wrapped += c;
    if (c == u'_' || c == u',' || c == u':' || c == u'<') wrapped += QChar(0x200B);
  }
  return wrapped;
}

}  // namespace

DetailsPanel::DetailsPanel(TraceSession* session, QWidget* parent) : QWidget(parent), session_(session) {
  buildLayout();
  connect(session_, &TraceSession::selectionChanged, this, &DetailsPanel::refresh);
  connect(session_, &TraceSession::timeBaseChanged, this, &DetailsPanel::refresh);
  connect(session_, &TraceSession::traceChanged, this, [this] {
    roofline_.reset();
    refresh();
  });
  connect(toCall_, &QPushButton::clicked, this, &DetailsPanel::jumpToLaunchingCall);
  connect(toWork_, &QPushButton::clicked, this, &DetailsPanel::jumpToLaunchedWork);
  connect(tree_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item, int column) {
    if (column == 1) openLink(item);
  });
  connect(tree_, &QTreeWidget::itemActivated, this, &DetailsPanel::openLink);
  refresh();
}

void DetailsPanel::buildLayout() {
  title_ = new QLabel(this);
  title_->setWordWrap(true);
  // The pane's width is the user's: a long name wraps (or is cut), it never pushes the timeline aside.
  title_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QFont bold = title_->font();
  bold.setBold(true);
  title_->setFont(bold);
  kind_ = new QLabel(this);
  empty_ =
      new QLabel(tr("Click an event or a CPU sample in the timeline, or a row of a table, to see its details."), this);
  empty_->setWordWrap(true);
  toCall_ = new QPushButton(tr("Go to launching API call"), this);
  toCall_->setToolTip(tr("Select the CUDA API call that launched this GPU work"));
  toWork_ = new QPushButton(tr("Go to GPU work"), this);
  toWork_->setToolTip(tr("Select the GPU work this API call launched"));
  // The buttons hide when the selection moves; had they the focus, it would fall to the next widget and
  // the timeline's W/A/S/D would stop working. They are clicked, never tabbed to.
  toCall_->setFocusPolicy(Qt::NoFocus);
  toWork_->setFocusPolicy(Qt::NoFocus);

  tree_ = new QTreeWidget(this);
  tree_->setColumnCount(2);
  tree_->setHeaderLabels({tr("Field"), tr("Value")});
  tree_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  // Values wrap to the pane's width (rows as tall as their lines) instead of being cut to "cudaLaunchK…"; the
  // fields keep at most a share of it (fitFieldColumn) and nothing scrolls sideways.
  tree_->setUniformRowHeights(false);
  tree_->setItemDelegateForColumn(0, new WrappedTextDelegate(tree_, 0));  // and so do the field names
  tree_->setItemDelegateForColumn(1, new WrappedTextDelegate(tree_, 1));
  tree_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  tree_->header()->setStretchLastSection(true);
  tree_->header()->setSectionResizeMode(0, QHeaderView::Interactive);
  tree_->viewport()->installEventFilter(this);
  tree_->setContextMenuPolicy(Qt::ActionsContextMenu);
  auto* copy = new QAction(tr("Copy"), tree_);
  copy->setShortcut(QKeySequence::Copy);
  copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  connect(copy, &QAction::triggered, this, &DetailsPanel::copySelection);
  tree_->addAction(copy);

  auto* buttons = new QHBoxLayout;
  buttons->addWidget(toCall_);
  buttons->addWidget(toWork_);
  buttons->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(title_);
  layout->addWidget(kind_);
  layout->addLayout(buttons);
  layout->addWidget(empty_);
  layout->addWidget(tree_, 1);
}

void DetailsPanel::refresh() {
  const auto& selection = session_->selection();
  const auto& sample = session_->selectedSample();
  details_ = !session_->hasTrace() ? EventDetails{}
             : selection           ? describeEvent(*session_->trace(), *selection, session_->timeBase())
             : sample ? describeSample(*session_->trace(), sample->globalTid, sample->index, session_->timeBase())
             : session_->selectedMemoryEvent()
                 ? describeMemoryEvent(*session_->trace(), *session_->selectedMemoryEvent(), session_->timeBase())
                 : EventDetails{};
  if (details_.kind == "Kernel") addRooflineSections(*selection);
  bool shown = !details_.title.empty();
  title_->setText(wrappable(details_.title));
  title_->setToolTip(text(details_.title));
  title_->setVisible(shown);
  kind_->setText(text(details_.kind));
  kind_->setVisible(shown);
  empty_->setVisible(!shown);
  tree_->setVisible(shown);
  toCall_->setVisible(details_.launchingCall.has_value());
  toWork_->setVisible(!details_.launchedWork.empty());
  fillTree();
}

void DetailsPanel::addRooflineSections(EventRef event) {
  const Trace& trace = *session_->trace();
  if (!roofline_) roofline_ = std::make_unique<RooflineChart>(loadRooflineChart(trace));
  if (!roofline_->metricsError.empty()) {
    // An unreadable metrics table: the kernel's other details still show.
    details_.sections.push_back({"Roofline", {{"Metrics", roofline_->metricsError, std::nullopt}}});
    return;
  }
  const RooflineKernel* kernel =
      roofline_->kernelOf(trace.track(event.track).globalTid, trace.lane(event).correlation[event.index]);
  if (!kernel) return;
  for (auto& section : kernelRooflineSections(*kernel, roofline_->roofsOf(kernel->deviceId)))
    details_.sections.push_back(std::move(section));
}

void DetailsPanel::fillTree() {
  tree_->clear();
  links_.clear();
  QFont bold = tree_->font();
  bold.setBold(true);
  for (const auto& section : details_.sections) {
    auto* sectionItem = new QTreeWidgetItem(tree_, {text(section.title)});
    sectionItem->setFirstColumnSpanned(true);
    sectionItem->setFont(0, bold);
    for (const auto& field : section.fields) addField(sectionItem, field);
    sectionItem->setExpanded(true);
  }
  fitFieldColumn();
}

// The labels' column fits its longest label, up to a share of the pane that leaves the values room to read.
void DetailsPanel::fitFieldColumn() {
  constexpr double kMostForFields = 0.45;
  const int most = static_cast<int>(tree_->viewport()->width() * kMostForFields);
  const int labels = static_cast<const QAbstractItemView*>(tree_)->sizeHintForColumn(0);  // public there
  tree_->header()->resizeSection(0, std::min(labels, most));
}

bool DetailsPanel::eventFilter(QObject* watched, QEvent* event) {
  if (watched == tree_->viewport() && event->type() == QEvent::Resize) fitFieldColumn();
  return QWidget::eventFilter(watched, event);
}

QTreeWidgetItem* DetailsPanel::addField(QTreeWidgetItem* section, const DetailField& field) {
  auto* item = new QTreeWidgetItem(section, {text(field.label), text(field.value)});
  item->setToolTip(0, text(field.label));
  item->setToolTip(1, text(field.value));
  if (field.link) {
    item->setData(1, kLinkRole, static_cast<int>(links_.size()));
    links_.push_back(*field.link);
    QFont link = tree_->font();
    link.setUnderline(true);
    item->setFont(1, link);
    item->setForeground(1, palette().brush(QPalette::Link));
    item->setToolTip(1, tr("Click to select %1").arg(text(field.value)));
  }
  return item;
}

void DetailsPanel::openLink(QTreeWidgetItem* item) {
  if (!item) return;
  QVariant index = item->data(1, kLinkRole);
  if (!index.isValid()) return;
  EventRef target = links_.at(static_cast<size_t>(index.toInt()));
  // The jump rebuilds this tree, so leave the click handler first.
  QMetaObject::invokeMethod(
      this, [this, target] { session_->focusEvent(target); }, Qt::QueuedConnection);
}

void DetailsPanel::jumpToLaunchingCall() {
  if (details_.launchingCall) session_->focusEvent(*details_.launchingCall);
}

void DetailsPanel::jumpToLaunchedWork() {
  if (!details_.launchedWork.empty()) session_->focusEvent(details_.launchedWork.front());
}

void DetailsPanel::copySelection() const {
  auto items = tree_->selectedItems();
  QStringList lines;
  auto addLine = [&lines](const QTreeWidgetItem* item) {
    lines << (item->parent() ? item->text(0) + QLatin1Char('\t') + item->text(1) : item->text(0));
  };
  if (items.isEmpty()) {
    lines << title_->text();
    for (int s = 0; s < tree_->topLevelItemCount(); ++s) {
      addLine(tree_->topLevelItem(s));
      for (int f = 0; f < tree_->topLevelItem(s)->childCount(); ++f) addLine(tree_->topLevelItem(s)->child(f));
    }
  } else {
    for (const auto* item : items) addLine(item);
  }
  QApplication::clipboard()->setText(lines.join(QLatin1Char('\n')));
}

QString DetailsPanel::shownValue(const QString& label, const QString& section) const {
  for (int s = 0; s < tree_->topLevelItemCount(); ++s) {
    const QTreeWidgetItem* sectionItem = tree_->topLevelItem(s);
    if (!section.isEmpty() && sectionItem->text(0) != section) continue;
    for (int f = 0; f < sectionItem->childCount(); ++f) {
      if (sectionItem->child(f)->text(0) == label) return sectionItem->child(f)->text(1);
    }
  }
  return {};
}

}  // namespace gpuscope::ui
