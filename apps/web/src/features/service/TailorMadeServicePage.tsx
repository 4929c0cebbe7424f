import { Typography } from '@mui/material';
import { ServiceArticle } from './ServiceArticle';

/** /service/tailor-made-service-agreements. */
export default function TailorMadeServicePage() {
  return (
    <ServiceArticle
      title="Tailor-made service agreements"
      lead="No two fleets sail the same trades. A service agreement is built around your ships, your routes and how much you want to handle yourselves."
      points={[
        {
          title: 'Choose the level',
          text: 'From remote monitoring only, through yearly inspections, to full care with spares, visits and remote support included at a fixed yearly price.',
        },
        {
          title: 'Predictable costs',
          text: 'A fixed fee per ship and year covers the agreed work. Extra work is quoted before it starts, never invoiced as a surprise.',
        },
        {
          title: 'Uptime targets',
          text: 'We agree an operational availability target and report against it every month, using the same uptime figures you see on the ship dashboard.',
        },
        {
          title: 'Spare parts on consignment',
          text: 'A set of critical spares can be kept on board or in a hub near your trade, owned by us until used.',
        },
        {
          title: 'Training for your crew',
          text: 'Onboard and online training for engineers on operation, daily checks and first-line fault finding, with a certificate for the crew records.',
        },
        {
          title: 'Reviewed every year',
          text: 'Once a year we go through the fleet\u2019s data with you and adjust the agreement to the ships you actually have and how they are used.',
        },
      ]}
    >
      <Typography>
        Ask your service coordinator for a proposal: we need the ship list, the trades and your current
        maintenance plan.
      </Typography>
    </ServiceArticle>
  );
}
