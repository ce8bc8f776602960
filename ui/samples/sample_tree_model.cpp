#include "ui/samples/sample_tree_model.h"

#include <algorithm>

#include "core/samples/frame_names.h"
#include "ui/text.h"

namespace gpuscope::ui {
namespace {

QString shareText(int64_t part, size_t whole) {
  double percent = whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
  return QString::number(percent, 'f', 1) + QLatin1Char('%');
}

}  // namespace

SampleTreeModel::SampleTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void SampleTreeModel::setSamples(std::shared_ptr<const CpuSamples> samples, SampleViewMode mode) {
  beginResetModel();
  samples_ = std::move(samples);
  mode_ = mode;
  tree_ = {};
  flat_.clear();
  if (samples_) {
    if (mode == SampleViewMode::Flat) {
      flat_ = flatView(*samples_);
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

QModelIndex SampleTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (row < 0 || column < 0 || column >= ColumnCount) return {};
  if (mode_ == SampleViewMode::Flat) {
    if (parent.isValid() || row >= static_cast<int>(flat_.size())) return {};
    return createIndex(row, column, quintptr{0});
  }
  const auto& children = childrenOf(parent);
  if (row >= static_cast<int>(children.size())) return {};
  return createIndex(row, column, static_cast<quintptr>(children[static_cast<size_t>(row)]));
}

QModelIndex SampleTreeModel::parent(const QModelIndex& child) const {
  if (!child.isValid() || mode_ == SampleViewMode::Flat) return {};
  int32_t parentNode = tree_.nodes[static_cast<size_t>(child.internalId())].parent;
  if (parentNode <= 0) return {};
  const auto& siblings = tree_.nodes[static_cast<size_t>(tree_.nodes[static_cast<size_t>(parentNode)].parent)].children;
  auto row = std::find(siblings.begin(), siblings.end(), parentNode) - siblings.begin();
  return createIndex(static_cast<int>(row), 0, static_cast<quintptr>(parentNode));
}

int SampleTreeModel::rowCount(const QModelIndex& parent) const {
  if (parent.column() > 0) return 0;
  if (mode_ == SampleViewMode::Flat) return parent.isValid() ? 0 : static_cast<int>(flat_.size());
  return static_cast<int>(childrenOf(parent).size());
}

int SampleTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

SampleTreeModel::RowCounts SampleTreeModel::countsOf(const QModelIndex& index) const {
  if (mode_ == SampleViewMode::Flat) {
    const FlatEntry& entry = flat_[static_cast<size_t>(index.row())];
    return {entry.symbol, entry.module, entry.total, entry.self};
  }
  const CallTreeNode& node = tree_.nodes[static_cast<size_t>(index.internalId())];
  return {node.symbol, node.module, node.total, node.self};
}

QVariant SampleTreeModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !samples_) return {};
  RowCounts row = countsOf(index);
  if (role == Qt::TextAlignmentRole && index.column() >= Total)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole && index.column() <= Module)
    return QString::fromStdString(std::string(samples_->name(index.column() == Function ? row.symbol : row.module)));
  if (role != Qt::DisplayRole) return {};
  switch (static_cast<Column>(index.column())) {
    case Function:
      return QString::fromStdString(frameLabel(samples_->name(row.symbol)));
    case Module: {
      std::string_view module = samples_->name(row.module);
      return QString::fromStdString(std::string(module.substr(module.rfind('/') + 1)));
    }
    case Total:
      return countText(static_cast<uint64_t>(row.total));
    case TotalShare:
      return shareText(row.total, samples_->size());
    case Self:
      return countText(static_cast<uint64_t>(row.self));
    case SelfShare:
      return shareText(row.self, samples_->size());
    case ColumnCount:
      break;
  }
  return {};
}

QVariant SampleTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* const titles[] = {"Function", "Module", "Total", "Total %", "Self", "Self %"};
  return section >= 0 && section < ColumnCount ? tr(titles[section]) : QVariant{};
}

void SampleTreeModel::sort(int column, Qt::SortOrder order) {
  if (!samples_) return;
  auto before = [&](const RowCounts& a, const RowCounts& b) {
    switch (column) {
      case Function:
        return samples_->name(a.symbol) < samples_->name(b.symbol);
      case Module:
        return samples_->name(a.module) < samples_->name(b.module);
      case Self:
      case SelfShare:
        return a.self < b.self;
      default:
        return a.total < b.total;
    }
  };
  auto ordered = [&](const RowCounts& a, const RowCounts& b) {
    return order == Qt::AscendingOrder ? before(a, b) : before(b, a);
  };
  // A reset rather than a layout change: rows move between every parent, and a sort is rare.
  beginResetModel();
  std::stable_sort(flat_.begin(), flat_.end(), [&](const FlatEntry& a, const FlatEntry& b) {
    return ordered({a.symbol, a.module, a.total, a.self}, {b.symbol, b.module, b.total, b.self});
  });
  for (CallTreeNode& node : tree_.nodes) {
    std::stable_sort(node.children.begin(), node.children.end(), [&](int32_t a, int32_t b) {
      const CallTreeNode& x = tree_.nodes[static_cast<size_t>(a)];
      const CallTreeNode& y = tree_.nodes[static_cast<size_t>(b)];
      return ordered({x.symbol, x.module, x.total, x.self}, {y.symbol, y.module, y.total, y.self});
    });
  }
  endResetModel();
}

}  // namespace gpuscope::ui
