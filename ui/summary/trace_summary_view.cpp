#include "ui/summary/trace_summary_view.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileInfo>
#include <QFrame>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QStyledItemDelegate>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>
#include <algorithm>
#include <array>
#include <tuple>
#include <vector>

#include "core/model/time_math.h"
#include "core/model/trace.h"
#include "core/model/trace_summary.h"
#include "ui/session/trace_session.h"
#include "ui/text.h"

namespace gpuscope::ui {

namespace {

constexpr auto kNumber = Qt::AlignRight | Qt::AlignVCenter;

QString number(qlonglong value) { return QLocale().toString(value); }

QString bytes(int64_t value) { return value > 0 ? bytesText(value) : QStringLiteral("—"); }

QString orDash(qlonglong value) { return value > 0 ? number(value) : QStringLiteral("—"); }

// Rates are decimal, as GPU data sheets print them: 3.35 TB/s, 1.98 GHz.
QString decimalRate(double value, const char* unit) {
  if (value <= 0) return QStringLiteral("—");
  static constexpr std::array<const char*, 5> kPrefixes = {"", "k", "M", "G", "T"};
  size_t prefix = 0;
  while (value >= 1000.0 && prefix + 1 < kPrefixes.size()) {
    value /= 1000.0;
    ++prefix;
  }
  return QStringLiteral("%1 %2%3").arg(QLocale().toString(value, 'f', value < 10 ? 2 : 1), kPrefixes[prefix], unit);
}

QString plural(qlonglong count, const QString& one, const QString& many) {
  return QStringLiteral("%1 %2").arg(number(count), count == 1 ? one : many);
}

// A tree whose preferred height is its content, so a short list leaves page background below it
// rather than an empty white box; when space runs out the layout shrinks it and it scrolls.
class FittedTreeWidget : public QTreeWidget {
 public:
  explicit FittedTreeWidget(QWidget* parent) : QTreeWidget(parent) {
    connect(this, &QTreeWidget::itemExpanded, this, &QWidget::updateGeometry);
    connect(this, &QTreeWidget::itemCollapsed, this, &QWidget::updateGeometry);
  }

  QSize sizeHint() const override {
    int rows = 0;
    for (QTreeWidgetItemIterator it(const_cast<FittedTreeWidget*>(this)); *it; ++it) {
      bool shown = true;
      for (QTreeWidgetItem* parent = (*it)->parent(); parent && shown; parent = parent->parent()) {
        shown = parent->isExpanded();
      }
      if (shown) ++rows;
    }
    const int rowHeight = rows > 0 ? sizeHintForRow(0) : fontMetrics().height();
    const int headerHeight = isHeaderHidden() ? 0 : header()->sizeHint().height();
    return {QTreeWidget::sizeHint().width(), headerHeight + std::max(rows, 1) * rowHeight + 2 * frameWidth() + 2};
  }

  QSize minimumSizeHint() const override {
    return {QTreeWidget::minimumSizeHint().width(), std::min(sizeHint().height(), 120)};
  }
};

// Rows a little taller than the style's minimum, in step with the label grids beside the trees.
class RoomyRowDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override {
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    size.setHeight(std::max(size.height(), option.fontMetrics.height() + 6));
    return size;
  }
};

QTreeWidget* makeTree(const QStringList& headers, QWidget* parent) {
  auto* tree = new FittedTreeWidget(parent);
  tree->setItemDelegate(new RoomyRowDelegate(tree));
  tree->setHeaderLabels(headers);
  tree->setUniformRowHeights(true);
  tree->setAlternatingRowColors(true);
  tree->setSelectionMode(QAbstractItemView::SingleSelection);
  tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
  QHeaderView* header = tree->header();
  header->setStretchLastSection(false);
  header->setSectionResizeMode(QHeaderView::ResizeToContents);
  header->setSectionResizeMode(0, QHeaderView::Stretch);
  for (int column = 1; column < headers.size(); ++column) {
    tree->headerItem()->setTextAlignment(column, kNumber);
  }
  return tree;
}

void setNumber(QTreeWidgetItem* item, int column, qlonglong value) {
  item->setText(column, number(value));
  item->setData(column, Qt::UserRole, value);
  item->setTextAlignment(column, kNumber);
}

// Ids are labels, not quantities: no digit grouping.
void setId(QTreeWidgetItem* item, int column, uint32_t id) {
  item->setText(column, QString::number(id));
  item->setData(column, Qt::UserRole, static_cast<qlonglong>(id));
  item->setTextAlignment(column, kNumber);
}

struct CpuCounts {
  size_t cudaApi = 0;
  size_t nvtx = 0;
  size_t osrt = 0;
  CpuCounts& operator+=(const CpuCounts& other) {
    cudaApi += other.cudaApi;
    nvtx += other.nvtx;
    osrt += other.osrt;
    return *this;
  }
};

struct GpuCounts {
  size_t kernels = 0;
  size_t memory = 0;
  GpuCounts& operator+=(const GpuCounts& other) {
    kernels += other.kernels;
    memory += other.memory;
    return *this;
  }
};

CpuCounts countsOf(const Trace& trace, const ThreadInfo& thread) {
  CpuCounts counts;
  for (uint32_t index : thread.tracks) {
    const Track& track = trace.track(index);
    switch (track.kind) {
      case TrackKind::CudaApi:
        counts.cudaApi += track.eventCount();
        break;
      case TrackKind::Nvtx:
        counts.nvtx += track.eventCount();
        break;
      case TrackKind::OsRuntime:
        counts.osrt += track.eventCount();
        break;
      default:
        break;
    }
  }
  return counts;
}

GpuCounts countsOf(const Trace& trace, const StreamInfo& stream) {
  GpuCounts counts;
  for (uint32_t index : stream.tracks) {
    const Track& track = trace.track(index);
    if (track.kind == TrackKind::GpuKernels) counts.kernels += track.eventCount();
    if (track.kind == TrackKind::GpuMemory) counts.memory += track.eventCount();
  }
  return counts;
}

void setCpuCounts(QTreeWidgetItem* item, const CpuCounts& counts) {
  setNumber(item, 2, static_cast<qlonglong>(counts.cudaApi));
  setNumber(item, 3, static_cast<qlonglong>(counts.nvtx));
  setNumber(item, 4, static_cast<qlonglong>(counts.osrt));
}

void setGpuCounts(QTreeWidgetItem* item, const GpuCounts& counts) {
  setNumber(item, 3, static_cast<qlonglong>(counts.kernels));
  setNumber(item, 4, static_cast<qlonglong>(counts.memory));
}

QString deviceTitle(const DeviceInfo& device) {
  return device.name.empty() ? QObject::tr("GPU %1").arg(device.id)
                             : QObject::tr("GPU %1 · %2").arg(device.id).arg(QString::fromStdString(device.name));
}

// A box with a title whose contents keep their natural height.
QGroupBox* factBox(const QString& title, QWidget* parent) {
  auto* box = new QGroupBox(title, parent);
  box->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
  return box;
}

}  // namespace

TraceSummaryView::TraceSummaryView(TraceSession* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      title_(new QLabel(this)),
      path_(new QLabel(this)),
      headline_(new QLabel(this)),
      copyButton_(new QPushButton(tr("Copy as Text"), this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(16, 14, 16, 12);
  layout->setSpacing(12);

  // Header: file name, path, one line of the essentials, and a copy button.
  QFont titleFont = title_->font();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 1.6);
  titleFont.setBold(true);
  title_->setFont(titleFont);
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  path_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  path_->setForegroundRole(QPalette::PlaceholderText);
  path_->setWordWrap(true);
  headline_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  copyButton_->setToolTip(tr("Copy this summary, as `gpuscope info` prints it, to the clipboard"));
  auto* header = new QHBoxLayout;
  auto* headerText = new QVBoxLayout;
  headerText->setSpacing(2);
  headerText->addWidget(title_);
  headerText->addWidget(path_);
  headerText->addSpacing(4);
  headerText->addWidget(headline_);
  header->addLayout(headerText, 1);
  header->addWidget(copyButton_, 0, Qt::AlignTop);
  layout->addLayout(header);

  // Fact boxes: the trace, its event counts, its GPUs.
  auto* facts = new QHBoxLayout;
  facts->setSpacing(12);

  QGroupBox* traceBox = factBox(tr("Trace"), this);
  auto* traceGrid = new QGridLayout(traceBox);
  addValueRow(traceGrid, QStringLiteral("start"), tr("Start"));
  addValueRow(traceGrid, QStringLiteral("end"), tr("End"));
  addValueRow(traceGrid, QStringLiteral("duration"), tr("Duration"), true);
  addValueRow(traceGrid, QStringLiteral("fileSize"), tr("File size"));
  addValueRow(traceGrid, QStringLiteral("processes"), tr("Processes"));
  addValueRow(traceGrid, QStringLiteral("threads"), tr("Threads"));
  addValueRow(traceGrid, QStringLiteral("gpus"), tr("GPUs"));
  addValueRow(traceGrid, QStringLiteral("streams"), tr("GPU streams"));
  addValueRow(traceGrid, QStringLiteral("tracks"), tr("Timeline rows"));
  traceGrid->setRowStretch(traceGrid->rowCount(), 1);

  QGroupBox* countBox = factBox(tr("Events"), this);
  auto* countGrid = new QGridLayout(countBox);
  addValueRow(countGrid, QStringLiteral("kernels"), tr("Kernels"));
  addValueRow(countGrid, QStringLiteral("memcpys"), tr("Memory copies"));
  addValueRow(countGrid, QStringLiteral("memsets"), tr("Memory sets"));
  addValueRow(countGrid, QStringLiteral("cudaApi"), tr("CUDA API calls"));
  addValueRow(countGrid, QStringLiteral("nvtx"), tr("NVTX ranges and marks"));
  addValueRow(countGrid, QStringLiteral("osrt"), tr("OS runtime calls"));
  auto* rule = new QFrame(countBox);
  rule->setFrameShape(QFrame::HLine);
  rule->setFrameShadow(QFrame::Sunken);
  countGrid->addWidget(rule, countGrid->rowCount(), 0, 1, 2);
  addValueRow(countGrid, QStringLiteral("total"), tr("Total"), true);
  addValueRow(countGrid, QStringLiteral("syncs"), tr("Synchronizations"));
  countGrid->setRowStretch(countGrid->rowCount(), 1);

  QGroupBox* deviceBox = factBox(tr("GPUs"), this);
  auto* deviceLayout = new QVBoxLayout(deviceBox);
  devices_ = new FittedTreeWidget(deviceBox);
  devices_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
  devices_->setItemDelegate(new RoomyRowDelegate(devices_));
  devices_->setObjectName(QStringLiteral("deviceTable"));
  devices_->setRootIsDecorated(false);
  devices_->setUniformRowHeights(true);
  devices_->setAlternatingRowColors(true);
  devices_->setSelectionMode(QAbstractItemView::NoSelection);
  devices_->setFocusPolicy(Qt::NoFocus);
  devices_->setFrameShape(QFrame::NoFrame);
  devices_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  devices_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  devices_->header()->setStretchLastSection(true);
  deviceLayout->setContentsMargins(4, 4, 4, 4);
  deviceLayout->addWidget(devices_);

  facts->addWidget(traceBox, 2);
  facts->addWidget(countBox, 2);
  facts->addWidget(deviceBox, 5);
  layout->addLayout(facts);

  // Trees: who ran on the CPU, and what ran on each GPU stream. As tall as their contents (when
  // there is room), side by side at equal height; the page background takes what is left.
  auto* trees = new QHBoxLayout;
  trees->setSpacing(12);
  auto* processBox = new QGroupBox(tr("Processes and threads"), this);
  auto* processLayout = new QVBoxLayout(processBox);
  processLayout->setContentsMargins(4, 4, 4, 4);
  processes_ = makeTree({tr("Process / thread"), tr("ID"), tr("CUDA API"), tr("NVTX"), tr("OS runtime")}, processBox);
  processes_->setObjectName(QStringLiteral("processTree"));
  processLayout->addWidget(processes_);
  auto* streamBox = new QGroupBox(tr("GPU streams"), this);
  auto* streamLayout = new QVBoxLayout(streamBox);
  streamLayout->setContentsMargins(4, 4, 4, 4);
  streams_ = makeTree({tr("GPU / stream"), tr("Process"), tr("Context"), tr("Kernels"), tr("Memory ops")}, streamBox);
  streams_->setObjectName(QStringLiteral("streamTree"));
  streamLayout->addWidget(streams_);
  trees->addWidget(processBox, 1);
  trees->addWidget(streamBox, 1);
  layout->addLayout(trees);
  layout->addStretch(1);

  connect(copyButton_, &QPushButton::clicked, this, &TraceSummaryView::copyAsText);
  connect(session_, &TraceSession::traceChanged, this, &TraceSummaryView::rebuild);
  rebuild();
}

QLabel* TraceSummaryView::addValueRow(QGridLayout* grid, const QString& key, const QString& caption, bool emphasized) {
  const int row = grid->rowCount();
  auto* name = new QLabel(caption, grid->parentWidget());
  auto* value = new QLabel(grid->parentWidget());
  value->setObjectName(QStringLiteral("value.") + key);
  value->setAlignment(kNumber);
  value->setTextInteractionFlags(Qt::TextSelectableByMouse);
  if (emphasized) {
    QFont font = value->font();
    font.setBold(true);
    value->setFont(font);
    name->setFont(font);
  }
  grid->addWidget(name, row, 0);
  grid->addWidget(value, row, 1);
  grid->setColumnStretch(1, 1);
  return value;
}

QString TraceSummaryView::valueText(const QString& key) const {
  const auto* label = findChild<QLabel*>(QStringLiteral("value.") + key);
  return label ? label->text() : QString();
}

void TraceSummaryView::rebuild() {
  clear();
  const std::shared_ptr<const Trace>& trace = session_->trace();
  copyButton_->setEnabled(trace != nullptr);
  if (!trace) return;
  fillHeader(*trace);
  fillFacts(*trace);
  fillCounts(*trace);
  fillDevices(*trace);
  fillProcesses(*trace);
  fillStreams(*trace);
}

void TraceSummaryView::clear() {
  title_->clear();
  path_->clear();
  headline_->clear();
  for (QLabel* label : findChildren<QLabel*>()) {
    if (label->objectName().startsWith(QLatin1String("value."))) label->clear();
  }
  devices_->clear();
  devices_->setColumnCount(1);
  processes_->clear();
  streams_->clear();
}

void TraceSummaryView::fillHeader(const Trace& trace) {
  const QString path = QString::fromStdString(trace.path());
  const QFileInfo info(path);
  title_->setText(info.fileName());
  path_->setText(QDir::toNativeSeparators(info.absoluteFilePath()));
  size_t threads = 0;
  for (const ProcessInfo& process : trace.processes()) threads += process.threads.size();
  QStringList parts;
  parts << tr("Duration %1").arg(durationText(spanNs(trace.startTime(), trace.endTime())))
        << plural(static_cast<qlonglong>(trace.processes().size()), tr("process"), tr("processes"))
        << plural(static_cast<qlonglong>(threads), tr("thread"), tr("threads"))
        << plural(static_cast<qlonglong>(trace.devices().size()), tr("GPU"), tr("GPUs"))
        << plural(static_cast<qlonglong>(trace.counts().total()), tr("event"), tr("events"));
  headline_->setText(parts.join(QStringLiteral("  ·  ")));
}

void TraceSummaryView::fillFacts(const Trace& trace) {
  auto set = [this](const char* key, const QString& text) {
    if (auto* label = findChild<QLabel*>(QStringLiteral("value.") + QLatin1String(key))) label->setText(text);
  };
  set("start", durationText(trace.startTime()));
  set("end", durationText(trace.endTime()));
  set("duration", durationText(spanNs(trace.startTime(), trace.endTime())));
  set("fileSize", bytes(QFileInfo(QString::fromStdString(trace.path())).size()));
  size_t threads = 0;
  for (const ProcessInfo& process : trace.processes()) threads += process.threads.size();
  size_t streams = 0;
  for (const DeviceInfo& device : trace.devices()) streams += device.streams.size();
  set("processes", number(static_cast<qlonglong>(trace.processes().size())));
  set("threads", number(static_cast<qlonglong>(threads)));
  set("gpus", number(static_cast<qlonglong>(trace.devices().size())));
  set("streams", number(static_cast<qlonglong>(streams)));
  set("tracks", number(static_cast<qlonglong>(trace.tracks().size())));
}

void TraceSummaryView::fillCounts(const Trace& trace) {
  const EventCounts& counts = trace.counts();
  auto set = [this](const char* key, size_t value) {
    if (auto* label = findChild<QLabel*>(QStringLiteral("value.") + QLatin1String(key))) {
      label->setText(number(static_cast<qlonglong>(value)));
    }
  };
  set("kernels", counts.kernels);
  set("memcpys", counts.memcpys);
  set("memsets", counts.memsets);
  set("cudaApi", counts.cudaApi);
  set("nvtx", counts.nvtx);
  set("osrt", counts.osrt);
  set("total", counts.total());
  set("syncs", counts.syncs);
}

void TraceSummaryView::fillDevices(const Trace& trace) {
  // One column per GPU, one row per property: several GPUs read side by side.
  const auto& devices = trace.devices();
  QStringList headers{tr("Property")};
  for (const DeviceInfo& device : devices) headers << tr("GPU %1").arg(device.id);
  devices_->setColumnCount(static_cast<int>(headers.size()));
  devices_->setHeaderLabels(headers);
  if (devices.empty()) {
    auto* item = new QTreeWidgetItem(devices_, {tr("This trace has no GPU information.")});
    item->setForeground(0, palette().brush(QPalette::PlaceholderText));
  }
  auto row = [&](const QString& property, auto valueOf) {
    if (devices.empty()) return;
    auto* item = new QTreeWidgetItem(devices_, {property});
    for (size_t column = 0; column < devices.size(); ++column) {
      item->setText(static_cast<int>(column) + 1, valueOf(devices[column]));
    }
  };
  row(tr("Name"),
      [](const DeviceInfo& d) { return d.name.empty() ? QStringLiteral("—") : QString::fromStdString(d.name); });
  row(tr("Chip"), [](const DeviceInfo& d) {
    return d.chipName.empty() ? QStringLiteral("—") : QString::fromStdString(d.chipName);
  });
  row(tr("Compute capability"), [](const DeviceInfo& d) {
    return d.computeMajor > 0 ? QStringLiteral("%1.%2").arg(d.computeMajor).arg(d.computeMinor) : QStringLiteral("—");
  });
  row(tr("SMs"), [](const DeviceInfo& d) { return orDash(d.smCount); });
  row(tr("SM clock"), [](const DeviceInfo& d) { return decimalRate(static_cast<double>(d.clockRate), "Hz"); });
  row(tr("Memory"), [](const DeviceInfo& d) { return bytes(d.totalMemory); });
  row(tr("Memory bandwidth"),
      [](const DeviceInfo& d) { return decimalRate(static_cast<double>(d.memoryBandwidth), "B/s"); });
  row(tr("L2 cache"), [](const DeviceInfo& d) { return bytes(d.l2CacheSize); });
  row(tr("Shared memory per SM"), [](const DeviceInfo& d) { return bytes(d.maxShmemPerSm); });
  devices_->updateGeometry();
}

void TraceSummaryView::fillProcesses(const Trace& trace) {
  for (const ProcessInfo& process : trace.processes()) {
    auto* processItem = new QTreeWidgetItem(processes_);
    processItem->setText(
        0, process.name.empty() ? tr("Process %1").arg(process.pid) : QString::fromStdString(process.name));
    QFont bold = processItem->font(0);
    bold.setBold(true);
    processItem->setFont(0, bold);
    setId(processItem, 1, process.pid);
    CpuCounts total;
    for (const ThreadInfo& thread : process.threads) {
      auto* threadItem = new QTreeWidgetItem(processItem);
      threadItem->setText(0,
                          thread.name.empty() ? tr("Thread %1").arg(thread.tid) : QString::fromStdString(thread.name));
      setId(threadItem, 1, thread.tid);
      const CpuCounts counts = countsOf(trace, thread);
      setCpuCounts(threadItem, counts);
      total += counts;
    }
    setCpuCounts(processItem, total);
  }
  processes_->expandAll();
  processes_->updateGeometry();
}

void TraceSummaryView::fillStreams(const Trace& trace) {
  for (const DeviceInfo& device : trace.devices()) {
    auto* deviceItem = new QTreeWidgetItem(streams_);
    deviceItem->setText(0, deviceTitle(device));
    QFont bold = deviceItem->font(0);
    bold.setBold(true);
    deviceItem->setFont(0, bold);
    std::vector<const StreamInfo*> streams;
    for (const StreamInfo& stream : device.streams) streams.push_back(&stream);
    std::sort(streams.begin(), streams.end(), [](const StreamInfo* a, const StreamInfo* b) {
      return std::tie(a->pid, a->contextId, a->streamId) < std::tie(b->pid, b->contextId, b->streamId);
    });
    GpuCounts total;
    for (const StreamInfo* stream : streams) {
      auto* streamItem = new QTreeWidgetItem(deviceItem);
      streamItem->setText(0, tr("Stream %1").arg(stream->streamId));
      setId(streamItem, 1, stream->pid);
      setId(streamItem, 2, stream->contextId);
      const GpuCounts counts = countsOf(trace, *stream);
      setGpuCounts(streamItem, counts);
      total += counts;
    }
    setGpuCounts(deviceItem, total);
  }
  streams_->expandAll();
  streams_->updateGeometry();
}

void TraceSummaryView::copyAsText() {
  if (const auto& trace = session_->trace()) {
    QApplication::clipboard()->setText(QString::fromStdString(formatSummaryText(*trace)));
  }
}

}  // namespace gpuscope::ui
