package main

import (
	"slices"

	"github.com/brandpack/brandpack/extract/judge"
)

// sample is one labelled piece of copy.
type sample = judge.VoiceSample

// params are the fit's settings (judge.VoiceFitParams) and what this
// command adds around the fit.
type params struct {
	fit         judge.VoiceFitParams
	temperature float64 // set from the cross-validation
	noTuner     bool
}

var defaultParams = params{fit: judge.DefaultVoiceFit}

// fit trains a model on samples (judge.FitVoice: deterministic).
func fit(samples []sample, p params) *judge.VoiceModel {
	return judge.FitVoice(samples, p.fit)
}

// train fits the model that ships: both sets, the calibrated temperature.
func train(indep, tuner []sample, p params) *judge.VoiceModel {
	m := fit(slices.Concat(indep, tuner), p)
	m.Temperature = p.temperature
	return m
}
