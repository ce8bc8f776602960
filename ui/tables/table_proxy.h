#pragma once
// TableFilterProxy: the one sort-and-filter proxy every table uses (sort by SortRole, text or regex filter).
#include <QList>
#include <QSortFilterProxyModel>
#include <QString>

namespace gpuscope::ui {

// The role every table model answers with the raw value to sort by (a number, or text for names).
inline constexpr int kTableSortRole = Qt::UserRole + 1;

class TableFilterProxy : public QSortFilterProxyModel {
  Q_OBJECT
 public:
  explicit TableFilterProxy(QObject* parent = nullptr);

  // Keeps rows whose filter column contains TEXT (case-insensitive), or matches it as a regular expression
  // when REGEX is set. Returns the regular expression's error, or an empty string when the filter applied;
  // an invalid expression leaves every row shown.
  QString setFilter(const QString& text, bool regex);
  // Keeps rows where any of COLUMNS matches (a kernel's short or demangled name); empty: the filter key column.
  void setFilterColumns(QList<int> columns);

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

 private:
  QList<int> filterColumns_;
};

// Sets up a proxy over SOURCE: sorting by kTableSortRole, filtering on FILTER_COLUMN (-1: every column).
TableFilterProxy* createTableProxy(QAbstractItemModel* source, int filterColumn, QObject* parent);

}  // namespace gpuscope::ui
