#include "ui/tables/table_proxy.h"

#include <QRegularExpression>

namespace gpuscope::ui {

TableFilterProxy::TableFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {}

QString TableFilterProxy::setFilter(const QString& text, bool regex) {
  if (!regex) {
    setFilterRegularExpression(
        QRegularExpression(QRegularExpression::escape(text), QRegularExpression::CaseInsensitiveOption));
    return {};
  }
  QRegularExpression expression(text, QRegularExpression::CaseInsensitiveOption);
  if (!expression.isValid()) {
    setFilterRegularExpression(QRegularExpression());
    return expression.errorString();
  }
  setFilterRegularExpression(expression);
  return {};
}

void TableFilterProxy::setFilterColumns(QList<int> columns) {
  filterColumns_ = std::move(columns);
  invalidateFilter();
}

bool TableFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
  if (filterColumns_.isEmpty()) return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
  const QRegularExpression& expression = filterRegularExpression();
  for (int column : filterColumns_) {
    QModelIndex index = sourceModel()->index(sourceRow, column, sourceParent);
    if (expression.match(index.data(filterRole()).toString()).hasMatch()) return true;
  }
  return false;
}

TableFilterProxy* createTableProxy(QAbstractItemModel* source, int filterColumn, QObject* parent) {
  auto* proxy = new TableFilterProxy(parent);
  proxy->setSourceModel(source);
  proxy->setSortRole(kTableSortRole);
  proxy->setFilterKeyColumn(filterColumn);
  proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
  proxy->setSortCaseSensitivity(Qt::CaseInsensitive);
  proxy->setDynamicSortFilter(true);
  return proxy;
}

}  // namespace gpuscope::ui
