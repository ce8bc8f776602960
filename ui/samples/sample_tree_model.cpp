#include "ui/samples/sample_tree_model.h"

#include <algorithm>

#include "core/samples/frame_names.h"
#include "core/samples/sample_classes.h"
#include "ui/tables/table_proxy.h"
#include "ui/text.h"

namespace gpuscope::ui {
namespace {

QString shareText(int64_t part, size_t whole) {
  double percent = whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
  return QString::number(percent, 'f', 1) + QLatin1Char('%');
}

QString percentText(double share) { return QString::number(100.0 * share, 'f', 1) + QLatin1Char('%'); }

QString fileName(std::string_view path) {
  return QString::fromStdString(std::string(path.substr(path.rfind('/') + 1)));
}

// In the flat view a function row's internal id is 0; a child row's is its function's index + 1.
constexpr quintptr kFunctionRow = 0;

}  // namespace

CpuSamples withoutJunkFrames(const CpuSamples& samples, int64_t* junkFrames) {
  CleanStacks clean(samples);
  if (junkFrames) *junkFrames = clean.junkFrames();
  CpuSamples out;
  out.start = samples.start;
  out.globalTid = samples.globalTid;
  out.threadState = samples.threadState;
  out.names = samples.names;
  out.firstFrame.reserve(samples.size() + 1);
  out.frames.reserve(samples.frames.size());
  std::optional<uint32_t> unresolved;
  for (size_t s = 0; s < samples.size(); ++s) {
    out.firstFrame.push_back(static_cast<uint32_t>(out.frames.size()));
    if (clean.allJunk(s)) {
      if (!unresolved) {
        unresolved = static_cast<uint32_t>(out.names.size());
        out.names.emplace_back("[unresolved]");
      }
      out.frames.push_back({*unresolved, *unresolved, SampleFrame::kUnresolved});
      continue;
    }
    auto stack = clean.stackOf(s);
    out.frames.insert(out.frames.end(), stack.begin(), stack.end());
  }
  out.firstFrame.push_back(static_cast<uint32_t>(out.frames.size()));
  return out;
}

SampleTreeModel::SampleTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void SampleTreeModel::setSamples(std::shared_ptr<const CpuSamples> samples, SampleViewMode mode) {
  beginResetModel();
  samples_ = std::move(samples);
  mode_ = mode;
  tree_ = {};
  shares_ = {};
  if (samples_) {
    if (mode == SampleViewMode::Flat) {
      shares_ = functionShares(*samples_);
    } else {
      tree_ = callTree(*samples_, mode == SampleViewMode::TopDown ? TreeDirection::TopDown : TreeDirection::BottomUp);
    }
  }
  endResetModel();
}

const std::vector<int32_t>& SampleTreeModel::childrenOf(const QModelIndex& parent) const {
  if (mode_ == SampleViewMode::Flat || tree_.nodes.empty()) return noRows_;
  size_t node = parent.isValid() ? static_cast<size_t>(parent.internalId()) : 0;
  return tree_.nodes[node].children;
}

int32_t SampleTreeModel::nodeOf(const QModelIndex& index) const {
  if (!index.isValid() || mode_ == SampleViewMode::Flat || index.model() != this) return -1;
  return static_cast<int32_t>(index.internalId());
}

QModelIndex SampleTreeModel::indexOfNode(int32_t node) const {
  if (mode_ == SampleViewMode::Flat || node <= 0 || static_cast<size_t>(node) >= tree_.nodes.size()) return {};
  const auto& siblings = tree_.nodes[static_cast<size_t>(tree_.nodes[static_cast<size_t>(node)].parent)].children;
  auto row = std::find(siblings.begin(), siblings.end(), node) - siblings.begin();
  return createIndex(static_cast<int>(row), 0, static_cast<quintptr>(node));
}

QModelIndex SampleTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (row < 0 || column < 0 || column >= ColumnCount) return {};
  if (mode_ == SampleViewMode::Flat) {
    if (!parent.isValid()) {
      if (row >= static_cast<int>(shares_.functions.size())) return {};
      return createIndex(row, column, kFunctionRow);
    }
    if (parent.internalId() != kFunctionRow || row >= rowCount(parent)) return {};
    return createIndex(row, column, static_cast<quintptr>(parent.row()) + 1);
  }
  const auto& children = childrenOf(parent);
  if (row >= static_cast<int>(children.size())) return {};
  return createIndex(row, column, static_cast<quintptr>(children[static_cast<size_t>(row)]));
}

QModelIndex SampleTreeModel::parent(const QModelIndex& child) const {
  if (!child.isValid()) return {};
  if (mode_ == SampleViewMode::Flat) {
    if (child.internalId() == kFunctionRow) return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, kFunctionRow);
  }
  return indexOfNode(tree_.nodes[static_cast<size_t>(child.internalId())].parent);
}

int SampleTreeModel::rowCount(const QModelIndex& parent) const {
  if (parent.column() > 0) return 0;
  if (mode_ == SampleViewMode::Flat) {
    if (!parent.isValid()) return static_cast<int>(shares_.functions.size());
    if (parent.internalId() != kFunctionRow) return 0;
    const FunctionShare& function = shares_.functions[static_cast<size_t>(parent.row())];
    return static_cast<int>(function.leaves.size() + function.lines.size());
  }
  return static_cast<int>(childrenOf(parent).size());
}

int SampleTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant SampleTreeModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !samples_) return {};
  if (role == Qt::TextAlignmentRole && index.column() >= Total)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  return mode_ == SampleViewMode::Flat ? flatData(index, role) : treeData(index, role);
}

QVariant SampleTreeModel::treeData(const QModelIndex& index, int role) const {
  const CallTreeNode& node = tree_.nodes[static_cast<size_t>(index.internalId())];
  std::string_view symbol = samples_->name(node.symbol);
  switch (role) {
    case Qt::ToolTipRole:
      if (index.column() > Module) return {};
      return QString::fromStdString(
          std::string(samples_->name(index.column() == Function ? node.symbol : node.module)));
    case kFunctionRole:
      return QString::fromStdString(functionLabel(symbol));
    case kFilterTextRole:
      return QString::fromStdString(frameLabel(symbol) + '\n' + functionLabel(symbol));
    case kTableSortRole:
      switch (index.column()) {
        case Function:
          return QString::fromStdString(frameLabel(symbol));
        case Module:
          return fileName(samples_->name(node.module));
        case Self:
        case SelfShare:
          return QVariant::fromValue<qlonglong>(node.self);
        default:
          return QVariant::fromValue<qlonglong>(node.total);
      }
    case Qt::DisplayRole:
      break;
    default:
      return {};
  }
  switch (static_cast<Column>(index.column())) {
    case Function:
      return QString::fromStdString(frameLabel(symbol));
    case Module:
      return fileName(samples_->name(node.module));
    case Total:
      return countText(static_cast<uint64_t>(node.total));
    case TotalShare:
      return shareText(node.total, samples_->size());
    case Self:
      return countText(static_cast<uint64_t>(node.self));
    case SelfShare:
      return shareText(node.self, samples_->size());
    case ColumnCount:
      break;
  }
  return {};
}

QVariant SampleTreeModel::flatData(const QModelIndex& index, int role) const {
  const bool functionRow = index.internalId() == kFunctionRow;
  const FunctionShare& function =
      shares_.functions[static_cast<size_t>(functionRow ? index.row() : static_cast<int>(index.internalId() - 1))];
  // A child row: a leaf the function ran, or one of its lines.
  const SampleShare* part = nullptr;
  bool line = false;
  if (!functionRow) {
    auto row = static_cast<size_t>(index.row());
    line = row >= function.leaves.size();
    part = line ? &function.lines[row - function.leaves.size()] : &function.leaves[row];
  }
  const QString name = QString::fromStdString(part ? part->name : function.name);
  const int64_t samples = part ? part->samples : function.samples;
  const double share = part ? part->share : function.share;
  QString kind = functionRow ? QString() : line ? tr("line") : tr("leaf");
  switch (role) {
    case Qt::ToolTipRole:
      if (functionRow)
        return tr("%1 — %2: %3 samples, %4 of the working samples")
            .arg(name, QString::fromStdString(function.module), countText(static_cast<uint64_t>(samples)),
                 percentText(share));
      return (line ? tr("Line %1 of %2: %3 samples, %4 of the working samples")
                   : tr("%1 ran as the leaf in %2: %3 samples, %4 of the working samples"))
          .arg(name, QString::fromStdString(function.name), countText(static_cast<uint64_t>(samples)),
               percentText(share));
    case kFunctionRole:
      // A leaf is a function of its own; a line belongs to its function.
      return line || functionRow ? QString::fromStdString(function.name) : name;
    case kFilterTextRole:
      return name;
    case kTableSortRole:
      switch (index.column()) {
        case Function:
          return name;
        case Module:
          return functionRow ? fileName(function.module) : kind;
        default:
          return QVariant::fromValue<qlonglong>(samples);
      }
    case Qt::DisplayRole:
      break;
    default:
      return {};
  }
  switch (static_cast<Column>(index.column())) {
    case Function:
      return name;
    case Module:
      return functionRow ? fileName(function.module) : kind;
    case Total:
      return countText(static_cast<uint64_t>(samples));
    case TotalShare:
      return percentText(share);
    case Self:
    case SelfShare:
    case ColumnCount:
      break;
  }
  return {};
}

QVariant SampleTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  if (mode_ == SampleViewMode::Flat) {
    // Each sample is put down to one function: one count and its share of the working samples.
    static const char* const flatTitles[] = {"Function", "Module", "Samples", "Share"};
    return section >= 0 && section < Self ? tr(flatTitles[section]) : QVariant{};
  }
  static const char* const titles[] = {"Function", "Module", "Total", "Total %", "Self", "Self %"};
  return section >= 0 && section < ColumnCount ? tr(titles[section]) : QVariant{};
}

}  // namespace gpuscope::ui
