package workload

// LinGBMScales are the scale factors of LinGBM's Table 4.
var LinGBMScales = []int{1, 5, 10, 15, 20}

// lingbmTable4 is the number of instances LinGBM reports per template
// (paper Table 4), per scale factor of LinGBMScales.
var lingbmTable4 = [NumTemplates][5]int64{
	{540, 3373, 6843, 10521, 14457},
	{1000, 1000, 1000, 1000, 1000},
	{224, 1371, 2827, 4407, 6032},
	{93, 562, 1128, 1745, 2399},
	{15, 93, 189, 293, 402},
	{1000, 1000, 1000, 1000, 1000},
	{48950, 246500, 493250, 740400, 989250},
	{15000, 15000, 15000, 15000, 15000},
	{2000, 2000, 2000, 2000, 2000},
	{27077, 170576, 344750, 530133, 728208},
	{1000, 1000, 1000, 1000, 1000},
	{14685, 458490, 1864485, 4338744, 7953570},
	{899701, 27893940, 113921020, 262560648, 480241305},
	{6297907, 195257580, 797447140, 1837924536, 3361689135},
	{1000, 1000, 1000, 1000, 1000},
	{1000, 1000, 1000, 1000, 1000},
}

// LinGBMCount returns the number of instances of template id that LinGBM
// reports at scale factor scale (paper Table 4; LinGBM's own dataset and
// value lists), and false when the table has no such figure.
func LinGBMCount(id, scale int) (int64, bool) {
	if id < 1 || id > NumTemplates {
		return 0, false
	}
	for i, s := range LinGBMScales {
		if s == scale {
			return lingbmTable4[id-1][i], true
		}
	}
	return 0, false
}
