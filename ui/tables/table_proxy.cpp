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
