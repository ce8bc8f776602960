#include "ui/tables/report_table_model.h"

#include <QLocale>
#include <variant>

namespace gpuscope::ui {
namespace {

QVariant sortValue(const ReportCell& cell) {
  if (const auto* integer = std::get_if<int64_t>(&cell)) return qlonglong(*integer);
  if (const auto* real = std::get_if<double>(&cell)) return *real;
  if (const auto* text = std::get_if<std::string>(&cell)) return QString::fromStdString(*text);
  return {};
}

bool isNumber(const ReportCell& cell) {
  return std::holds_alternative<int64_t>(cell) || std::holds_alternative<double>(cell);
}

// What a cell shows: times in nanoseconds with digit groups ("13,259,010,878" reads at a glance, 13259010878
// does not), in the user's locale, grouped even where the locale (C) leaves groups out; ids, counts and text
// as the report has them.
QString displayText(const ReportCell& cell, const ReportColumn& column) {
  bool nanoseconds = column.title.find("(ns)") != std::string::npos;
  if (!nanoseconds || std::holds_alternative<std::string>(cell)) return QString::fromStdString(cellText(cell, column));
  QLocale locale;
  locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
  if (const auto* integer = std::get_if<int64_t>(&cell)) return locale.toString(qlonglong(*integer));
  if (const auto* real = std::get_if<double>(&cell)) return locale.toString(*real, 'f', column.decimals);
  return QString::fromStdString(cellText(cell, column));
}

}  // namespace

ReportTableModel::ReportTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ReportTableModel::setReport(ReportTable report) {
  beginResetModel();
  report_ = std::move(report);
  endResetModel();
}

int ReportTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(report_.rows.size());
}

int ReportTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(report_.columns.size());
}

QVariant ReportTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const auto& row = report_.rows[static_cast<size_t>(index.row())];
  auto column = static_cast<size_t>(index.column());
  if (column >= row.size()) return {};  // a short row reads as empty cells
  const ReportCell& cell = row[column];
  switch (role) {
    case Qt::DisplayRole:
      return displayText(cell, report_.columns[column]);
    case Qt::ToolTipRole:
      return std::holds_alternative<std::string>(cell) ? QVariant(QString::fromStdString(std::get<std::string>(cell)))
                                                       : QVariant();
    case SortRole:
      return sortValue(cell);
    case Qt::TextAlignmentRole:
      return isNumber(cell) ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    default:
      return {};
  }
}

QVariant ReportTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  if (section < 0 || section >= columnCount()) return {};
  return QString::fromStdString(report_.columns[static_cast<size_t>(section)].title);
}

}  // namespace gpuscope::ui
