#pragma once
// GpuShadingLegend: the strip under the timeline that says what its GPU shading means, one swatch per kind
// ("GPU idle > 1 ms", "GPU busy < 50%") in the colour painted on the rows; shown while there is shading.
#include <QWidget>

#include "ui/timeline/gpu_shading.h"

namespace gpuscope::ui {

class GpuShadingLegend : public QWidget {
  Q_OBJECT
 public:
  explicit GpuShadingLegend(QWidget* parent = nullptr);

  QSize sizeHint() const override;
  // As narrow as the timeline gets: the words are cut on the right rather than widening the window.
  QSize minimumSizeHint() const override { return {0, sizeHint().height()}; }
  // Where KIND's swatch is painted, for tests.
  QRect swatchRect(GpuShadeSpan::Kind kind) const;
  // The legend's words, as painted: "GPU shading from the analysis: GPU idle > 1 ms, GPU busy < 50%".
  QString text() const;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  int entryLeft(GpuShadeSpan::Kind kind) const;
};

}  // namespace gpuscope::ui
