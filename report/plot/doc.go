// Package plot draws the report's charts: it owns the chart (an SVG
// document to inline in HTML, with its legend, size and the bars it
// holds), the palette and its colour-blind-safe ratio scale, and the
// primitives the report's views compose — grouped bars with error bars
// and reference lines, the grouped layout and its split at MaxBars, box
// plots of five-number summaries, lines with error bars, small multiples
// and the heat map's geometry — on gonum/plot, which only this package
// imports.
//
// It knows nothing of runs, series or metrics: it must not import package
// report, nor runfile or any other gqlbench package; report's views turn
// figures into these primitives (a series into a colour index and a
// wrong-answer flag, a template into a group, a matrix into a heat map).
package plot
