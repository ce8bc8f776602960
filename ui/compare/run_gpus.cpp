#include "ui/compare/run_gpus.h"

#include <QLabel>
#include <QStringList>
#include <algorithm>
#include <vector>

namespace gpuscope::ui {
namespace {

// Each distinct GPU name of TRACE with how many devices bear it, in the order they first appear.
std::vector<std::pair<QString, int>> gpuCounts(const Trace& trace) {
  std::vector<std::pair<QString, int>> counts;
  for (const DeviceInfo& device : trace.devices()) {
    if (device.name.empty()) continue;
    QString name = QString::fromStdString(device.name);
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& entry) { return entry.first == name; });
    if (it == counts.end())
      counts.emplace_back(name, 1);
    else
      ++it->second;
  }
  return counts;
}

}  // namespace

QString runGpus(const Trace& trace) {
  QStringList names;
  for (const auto& [name, count] : gpuCounts(trace))
    names << (count > 1 ? QStringLiteral("%1 × %2").arg(count).arg(name) : name);
  return names.isEmpty() ? QObject::tr("unknown GPU") : names.join(QStringLiteral(", "));
}

QString differentGpusWarning(const Trace& a, const Trace& b) {
  if (gpuCounts(a).empty() || gpuCounts(b).empty()) return {};
  QString gpusA = runGpus(a), gpusB = runGpus(b);
  if (gpusA == gpusB) return {};
  return QObject::tr(
             "A ran on %1 and B on %2: the runs used different GPUs, so their times and roofs do not "
             "compare like for like.")
      .arg(gpusA, gpusB);
}

QLabel* differentGpusLabel(const Trace& a, const Trace& b, QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setObjectName(QStringLiteral("differentGpus"));
  label->setWordWrap(true);
  label->setTextFormat(Qt::PlainText);
  label->setStyleSheet(QStringLiteral("color: #b35c00; font-weight: bold;"));
  QString warning = differentGpusWarning(a, b);
  label->setText(QStringLiteral("\u26A0 ") + warning);
  if (warning.isEmpty()) label->hide();
  return label;
}

}  // namespace gpuscope::ui
