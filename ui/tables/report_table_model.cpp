#include "ui/tables/report_table_model.h"

#include <QLocale>
#include <string>
#include <string_view>
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
  const bool nanoseconds = column.title.find("(ns)") != std::string::npos;
  if (!nanoseconds || std::holds_alternative<std::string>(cell)) return QString::fromStdString(cellText(cell, column));
  QLocale locale;
  locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
  if (const auto* integer = std::get_if<int64_t>(&cell)) return locale.toString(qlonglong(*integer));
  if (const auto* real = std::get_if<double>(&cell)) return locale.toString(*real, 'f', column.decimals);
  return QString::fromStdString(cellText(cell, column));
}

// "Start (ns)", "Kernel Start (ns)", "End (ns)": the columns that hold moments in nsys's session time.
bool isMomentTitle(const std::string& title) {
  auto endsWith = [&title](std::string_view suffix) {
    return title.size() >= suffix.size() && title.compare(title.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return endsWith("Start (ns)") || endsWith("End (ns)");
}

}  // namespace

ReportTableModel::ReportTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ReportTableModel::setReport(ReportTable report) {
  beginResetModel();
  report_ = std::move(report);
  endResetModel();
}

void ReportTableModel::setTimeBase(TimeNs origin, TimeBase base) {
  if (origin == origin_ && base == base_) return;
  origin_ = origin;
  base_ = base;
  for (int column = 0; column < columnCount(); ++column) {
    if (!isMomentColumn(column)) continue;
    if (rowCount() > 0) emit dataChanged(index(0, column), index(rowCount() - 1, column), {Qt::DisplayRole});
    emit headerDataChanged(Qt::Horizontal, column, column);
  }
}

bool ReportTableModel::isMomentColumn(int column) const {
  return column >= 0 && column < columnCount() && isMomentTitle(report_.columns[static_cast<size_t>(column)].title);
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
      if (const auto* moment = std::get_if<int64_t>(&cell); moment && isMomentColumn(index.column()))
        return displayText(ReportCell(*moment - origin_), report_.columns[column]);
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

// A moment's header names its base: "Start (ns from trace start)" or "Start (ns, session time)".
QVariant ReportTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) return {};
  QString title = QString::fromStdString(report_.columns[static_cast<size_t>(section)].title);
  const bool trace = base_ == TimeBase::Trace;
  if (role == Qt::DisplayRole && isMomentColumn(section))
    title.replace(QStringLiteral("(ns)"), trace ? tr("(ns from trace start)") : tr("(ns, session time)"));
  if (role == Qt::DisplayRole) return title;
  if (role == Qt::ToolTipRole && isMomentColumn(section))
    return trace ? tr("Nanoseconds from the trace start, as the timeline counts. View > Times Count From > The "
                      "Session Start shows nsys's session time, which `gpuscope stats` and Export CSV print.")
                 : tr("Nanoseconds of session time, as nsys and `gpuscope stats` print them.");
  return {};
}

}  // namespace gpuscope::ui
