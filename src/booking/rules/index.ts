/**
 * Service-selection rules: the face of the room. A rules file is read and checked
 * ({@link loadRules}), the facts of each shipment are read from the document
 * ({@link shipmentFacts}), and {@link decideOrder} chooses each shipment's service from its quote
 * and explains the choice as data (the chosen service, the runner-up, the rule, the reason, the
 * rules that removed each service). Pure apart from reading files: the commands quote, print
 * and record.
 */
export { loadRules, checkRules, type RuleSet } from './load.js';
export { chooseService, type Decision, type Choice, type Refusal, type RatedEntry } from './decide.js';
export { shipmentFacts, senderOf, australianState, type ShipmentFacts } from './facts.js';
export { rulesJsonSchema } from './schema.js';
export { applyDecision, decideOrder, documentTags, orderShipments, ratedEntry, type OrderDecision } from './order.js';
export { loadQuoteFile, runRuleCases, type CaseResult, type PriceList } from './cases.js';
export { rulesDiff, type RulesDiff } from './diff.js';
export { decisionRecord, type ServiceChoice } from './record.js';
