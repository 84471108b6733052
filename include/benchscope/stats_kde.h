/* SPDX-License-Identifier: MIT */
/*
 * stats_kde.h - Gaussian kernel density estimation with Silverman's
 * bandwidth and the KLD similarity probability of two samples
 * (Laaber et al. 2020 §4.2.3, after He et al. 2019).
 */
#ifndef BENCHSCOPE_STATS_KDE_H
#define BENCHSCOPE_STATS_KDE_H

#include <stddef.h>

/** Default number of grid points ("strips") of the KLD (Laaber et al. 2020 §5.3). */
#define BS_KLD_GRID 1000

/**
 * bs_silverman_bandwidth - h = 1.06 min(sd, IQR / 1.34) n^(-1/5) of
 * x[0..n-1] (Silverman 1986 §3.4.2), sd with ddof = 1 and the IQR from
 * NumPy-linear quartiles (Hyndman & Fan 1996 definition 7). When IQR is 0
 * but sd > 0, sd alone is used (as R's bw.nrd0 does). Unit: that of x.
 * Returns BS_OK, BS_EINVAL, BS_EEMPTY, BS_ETOOFEW (n < 2), BS_ENONFINITE,
 * BS_EZEROVAR (all values equal), BS_ENOMEM.
 */
int bs_silverman_bandwidth(const double *x, size_t n, double *h);

/**
 * bs_kde_grid - Gaussian KDE f(t) = 1/(n h sqrt(2 pi)) sum_i
 * exp(-(t - x_i)^2 / (2 h^2)) at npts evenly spaced points
 * t_k = lo + k (hi - lo) / (npts - 1), k = 0..npts-1, written to dens.
 * Evaluated exactly (no binning) with a multiplicative recurrence along the
 * grid; relative error below 1e-12.
 * Returns BS_OK, BS_EINVAL (NULL, h <= 0, npts < 2, hi <= lo),
 * BS_EEMPTY, BS_ENONFINITE, BS_ENOMEM.
 */
int bs_kde_grid(const double *x, size_t n, double h, double lo, double hi, size_t npts,
		double *dens);

/** Details of one KLD comparison. */
struct bs_kld {
	double p;	   /* similarity probability 2^-KL12 * 2^-KL21 */
	double kl12, kl21; /* KL(d1||d2), KL(d2||d1) in bits */
	double lo, hi;	   /* grid range */
	double h1, h2;	   /* bandwidths used */
};

/**
 * bs_kld_prob - KLD similarity probability of samples d1, d2 (durations,
 * >= 0): both estimated by Gaussian KDE (Silverman) on a grid of npts
 * points (0 -> 1000) spanning [max(0, min_i(Q1_i - 1.5 IQR_i)),
 * max_i(Q3_i + 1.5 IQR_i)]; KL by the rectangle rule (step (hi-lo)/(npts-1))
 * skipping points where either density is 0; p = 2^-(KL12 + KL21); p = 1
 * when the range is a single point. A sample with no spread (one value or
 * all equal) borrows the other's bandwidth; when neither has spread and
 * the range is not a single point, p = 0. When the densities underflow to 0
 * at every grid point where the other is positive (samples hundreds of
 * bandwidths apart), every point would be skipped and the formula would
 * give p = 1; we return p = 0 (no common support) instead.
 * No outlier removal here.
 * Returns BS_OK, BS_EINVAL (NULL, npts == 1), BS_EEMPTY, BS_ENONFINITE,
 * BS_ENEGATIVE, BS_ENOMEM.
 */
int bs_kld_prob(const double *d1, size_t n1, const double *d2, size_t n2, size_t npts,
		struct bs_kld *out);

#endif
