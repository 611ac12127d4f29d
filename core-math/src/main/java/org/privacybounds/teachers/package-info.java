/**
 * Private knowledge transfer (the DaRRM paper's Section 6.2 and Appendix D.2): teachers trained with DP-SGD or plain SGD
 * ({@link org.privacybounds.teachers.DpSgd}, logistic regression in plain Java), and the aggregation of their votes on
 * query images by DaRRM and GNMax with accuracy against the true labels
 * ({@link org.privacybounds.teachers.KnowledgeTransfer}).
 */
package org.privacybounds.teachers;
