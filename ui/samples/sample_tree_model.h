#pragma once
// SampleTreeModel: the samples of the current scope as a bottom-up or top-down call tree, or as a flat list
// of functions, with each row's total and self samples and their shares of the scope's samples.
#include <QAbstractItemModel>
#include <memory>
#include <vector>

#include "core/samples/call_tree.h"
#include "core/samples/cpu_samples.h"

namespace gpuscope::ui {

enum class SampleViewMode { BottomUp, TopDown, Flat };

class SampleTreeModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  enum Column { Function, Module, Total, TotalShare, Self, SelfShare, ColumnCount };

  explicit SampleTreeModel(QObject* parent = nullptr);

  void setSamples(std::shared_ptr<const CpuSamples> samples, SampleViewMode mode);
  SampleViewMode mode() const { return mode_; }
  size_t sampleCount() const { return samples_ ? samples_->size() : 0; }

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
  void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

 private:
  struct RowCounts {
    uint32_t symbol = 0;
    uint32_t module = 0;
    int64_t total = 0;
    int64_t self = 0;
  };
  RowCounts countsOf(const QModelIndex& index) const;
  const std::vector<int32_t>& childrenOf(const QModelIndex& parent) const;

  std::shared_ptr<const CpuSamples> samples_;
  SampleViewMode mode_ = SampleViewMode::BottomUp;
  CallTree tree_;                // the trees; nodes[0] is the root
  std::vector<FlatEntry> flat_;  // the flat list
  std::vector<int32_t> noRows_;
};

}  // namespace gpuscope::ui
