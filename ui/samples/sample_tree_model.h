#pragma once
// SampleTreeModel: the samples of the current scope as a bottom-up or top-down call tree, with each row's
// total and self samples and their shares of the scope's samples, or as per-function shares (Flat), as
// py-spy's `top` counts them (core/samples/function_shares.h): a row per function with its samples and share
// of the working samples, and beneath it the leaves it ran and, for a Python function, its lines. Idle
// thread-pool samples are not functions there: shares() says what was set apart.
//
// Sorting and filtering are a proxy's (kTableSortRole, kFilterTextRole); the rows keep the core's order.
#include <QAbstractItemModel>
#include <memory>
#include <vector>

#include "core/samples/call_tree.h"
#include "core/samples/cpu_samples.h"
#include "core/samples/function_shares.h"

namespace gpuscope::ui {

enum class SampleViewMode { BottomUp, TopDown, Flat };

class SampleTreeModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  enum Column { Function, Module, Total, TotalShare, Self, SelfShare, ColumnCount };
  // The text a filter matches: the row's name and its function's label (functionLabel), so that a Python
  // function's label finds each of its lines' frames.
  static constexpr int kFilterTextRole = Qt::UserRole + 2;
  // The label of the row's function (functionLabel), as the timeline's highlight and the menus name it;
  // a flat view's line row gives its function's.
  static constexpr int kFunctionRole = Qt::UserRole + 3;

  explicit SampleTreeModel(QObject* parent = nullptr);

  // SAMPLES: for the trees, stacks without junk frames (withoutJunkFrames); for Flat, the samples as read
  // (functionShares cleans and classes them itself).
  void setSamples(std::shared_ptr<const CpuSamples> samples, SampleViewMode mode);
  SampleViewMode mode() const { return mode_; }
  size_t sampleCount() const { return samples_ ? samples_->size() : 0; }
  // The per-function shares the flat view lists; empty in the tree modes.
  const FunctionShares& shares() const { return shares_; }

  // The call tree node of a tree row, -1 for none (and in the flat view); the row of node NODE.
  int32_t nodeOf(const QModelIndex& index) const;
  QModelIndex indexOfNode(int32_t node) const;
  const CallTree& tree() const { return tree_; }

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  QVariant treeData(const QModelIndex& index, int role) const;
  QVariant flatData(const QModelIndex& index, int role) const;
  const std::vector<int32_t>& childrenOf(const QModelIndex& parent) const;

  std::shared_ptr<const CpuSamples> samples_;
  SampleViewMode mode_ = SampleViewMode::BottomUp;
  CallTree tree_;          // the trees; nodes[0] is the root
  FunctionShares shares_;  // the flat view
  std::vector<int32_t> noRows_;
};

// SAMPLES with the frames an unwinder made up (isJunkFrame) dropped from their stacks; a stack of junk only
// becomes one "[unresolved]" frame, as the flat view names it. Built once per scope for the trees and the
// flame graph, so that neither shows a 0xffffffffffffffff root. JUNK_FRAMES, where given, gets the number
// of frames dropped.
CpuSamples withoutJunkFrames(const CpuSamples& samples, int64_t* junkFrames = nullptr);

}  // namespace gpuscope::ui
