package org.privacybounds.validation;

/**
 * The parameters a {@link BadInputException} can name, each with the symbol the mathematics writes for it (the papers'
 * notation, shown in the message). A command line maps these keys to its own option names in one table, so rewording a
 * message never changes which option an error names.
 *
 * <pre>{@code
 * throw new BadInputException(Parameter.SAMPLE_SIZE, t, "must be in [0, n]");   // "T = -1: must be in [0, n]"
 * }</pre>
 */
public enum Parameter {
    /** The actual distribution of the votes (DaRRM error). */
    ACTUAL_DISTRIBUTION("actual distribution"),
    /** DaRRM's privacy allowance m. */
    ALLOWANCE("m"),
    /** A Renyi order alpha. */
    ALPHA("alpha"),
    /** The Renyi orders searched. */
    ALPHAS("alphas"),
    /** The approximate Pufferfish sensitivity Delta_G,delta. */
    APPROXIMATE_SENSITIVITY("Delta_G,delta"),
    /** The delta of Delta_G,delta (near mass left out). */
    APPROXIMATION_DELTA("approximation delta"),
    /** The assignments of records to distributions. */
    ASSIGNMENTS("assignments"),
    /** The grid of assignments of records to distributions. */
    ASSIGNMENT_GRID("assignment grid K"),
    /** The atoms of a discrete law. */
    ATOMS("atoms"),
    /** The Beta prior of the votes. */
    BETA_PRIOR("Beta prior"),
    /** The bits of quantization. */
    BITS("bits"),
    /** The block size m of a covariance. */
    BLOCK_SIZE("m"),
    /** The exponent k of the generalised Cauchy law. */
    CAUCHY_EXPONENT("k"),
    /** The per-example gradient clip norm C. */
    CLIP("C"),
    /** The Renyi order q(alpha - 1/p). */
    CLOSE_ORDER("q(alpha - 1/p)"),
    /** The number k of compositions. */
    COMPOSITIONS("k"),
    /** A confidence level. */
    CONFIDENCE("confidence"),
    /** The confidence interval method. */
    CONFIDENCE_INTERVAL("ci"),
    /** The delta of an RDP-to-DP conversion. */
    CONVERSION_DELTA("conversion delta"),
    /** The histogram of a database. */
    COUNTS("counts"),
    /** A covariance matrix. */
    COVARIANCE("covariance"),
    /** The Lipschitz constant of the data L_data. */
    DATA_LIPSCHITZ("L_data"),
    /** A delta. */
    DELTA("delta"),
    /** The delta' of general composition. */
    DELTA_PRIME("delta'"),
    /** The diameter of the parameter set K. */
    DIAMETER("diam(K)"),
    /** A dimension d. */
    DIMENSION("d"),
    /** The divergences d1, d2 per prior. */
    DIVERGENCES("d1, d2"),
    /** The training epochs. */
    EPOCHS("epochs"),
    /** A privacy parameter eps. */
    EPS("eps"),
    /** A privacy parameter epsilon. */
    EPSILON("epsilon"),
    /** The fraction eta of records kept. */
    ETA("eta"),
    /** DaRRM's noise function gamma. */
    GAMMA("gamma"),
    /** The sizes of the groups. */
    GROUP_SIZES("group sizes"),
    /** A dataset of histograms. */
    HISTOGRAMS("histograms"),
    /** The Hoelder exponents p, q, r. */
    HOLDER_EXPONENTS("p, q, r"),
    /** The images. */
    IMAGES("images"),
    /** The labels. */
    LABELS("labels"),
    /** A rate lambda. */
    LAMBDA("lambda"),
    /** A Laplace scale b. */
    LAPLACE_SCALE("b"),
    /** A discrete law. */
    LAW("law"),
    /** The SGD step size. */
    LEARNING_RATE("learning rate"),
    /** A Lipschitz constant L. */
    LIPSCHITZ("L"),
    /** The fractions of the loss. */
    LOSS_FRACTIONS("loss fractions"),
    /** The number of records lost. */
    LOST("lost"),
    /** The fraction of records lost. */
    LOST_FRACTION("lost fraction"),
    /** The largest infinity divergence per prior. */
    MAX_INFINITY_DIVERGENCE("maxInfinityDivergencePerTheta"),
    /** The largest hull handled exactly. */
    MAX_VERTICES("max vertices"),
    /** The mechanisms. */
    MECHANISMS("mechanisms"),
    /** The delta of each mechanism, Delta. */
    MECHANISM_DELTA("Delta"),
    /** A mean mu. */
    MU("mu"),
    /** The target m eps. */
    M_EPS("m eps"),
    /** The number n of records. */
    N("n"),
    /** A noise family. */
    NOISE("noise"),
    /** The eps of the added noise. */
    NOISE_EPS("noise eps"),
    /** A degrees-of-freedom nu. */
    NU("nu"),
    /** The number of votes for 1. */
    ONES("ones"),
    /** The Renyi orders. */
    ORDERS("orders"),
    /** An exponent or probability p. */
    P("p"),
    /** A part of the audit. */
    PART("part"),
    /** The set of distributions Pi. */
    PI("Pi"),
    /** The prior mean. */
    PRIOR_MEAN("prior mean"),
    /** N Sigma N^T of the Gaussian application. */
    PROJECTED_COVARIANCE("N Sigma N^T"),
    /** The Pufferfish sensitivity Delta_G. */
    PUFFERFISH_SENSITIVITY("Delta_G"),
    /** The number of queries. */
    QUERIES("queries"),
    /** A correlation rho. */
    RHO("rho"),
    /** The Monte Carlo samples. */
    SAMPLES("samples"),
    /** The fraction of records sampled. */
    SAMPLE_FRACTION("sample fraction"),
    /** The sample size T. */
    SAMPLE_SIZE("T"),
    /** The sampling rate q. */
    SAMPLING_RATE("q"),
    /** A noise scale. */
    SCALE("scale"),
    /** The secret values. */
    SECRETS("secrets"),
    /** The distance of the secrets. */
    SECRET_DISTANCE("secret distance"),
    /** The index of the secret record. */
    SECRET_INDEX("secret index"),
    /** A sensitivity. */
    SENSITIVITY("sensitivity"),
    /** A noise standard deviation or multiplier sigma. */
    SIGMA("sigma"),
    /** The number of steps. */
    STEPS("steps"),
    /** The step size eta. */
    STEP_SIZE("step size"),
    /** The form of the smooth sensitivity's beta. */
    SMOOTH_BETA("smooth beta"),
    /** The step sizes s_t. */
    STEP_SIZES("s"),
    /** The PABI strategy. */
    STRATEGY("strategy"),
    /** DaRRM's subsample size M. */
    SUBSAMPLE("M"),
    /** The symmetric fold. */
    SYMMETRIC_FOLD("symmetric fold"),
    /** The target guarantee. */
    TARGET("target"),
    /** The target epsilon. */
    TARGET_EPSILON("target epsilon"),
    /** The number K of teachers. */
    TEACHERS("K"),
    /** The adversary's threshold t. */
    THRESHOLD("t"),
    /** The total count. */
    TOTAL("total"),
    /** The training. */
    TRAINING("training"),
    /** The Monte Carlo trials. */
    TRIALS("trials"),
    /** The steps t_i. */
    T_I("t_i"),
    /** The form of the adjusted utility. */
    UTILITY_FORM("form"),
    /** A value. */
    VALUE("value"),
    /** The votes. */
    VOTES("votes"),
    /** The work limit. */
    WORK_LIMIT("work limit"),
    /** The infinity-Wasserstein distance. */
    W_INF("W_inf"),
    /** An argument x. */
    X("x"),
    /** An argument y. */
    Y("y");

    private final String symbol;

    Parameter(String symbol) {
        this.symbol = symbol;
    }

    /** The symbol as the mathematics writes it ("eps", "T", "Pi"). */
    public String symbol() {
        return symbol;
    }
}
