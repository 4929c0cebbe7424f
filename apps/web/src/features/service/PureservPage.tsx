import { Typography } from '@mui/material';
import { ServiceArticle } from './ServiceArticle';

/** /service/pureserv: the expert service organization. */
export default function PureservPage() {
  return (
    <ServiceArticle
      title="Expert service organization"
      lead="A scrubber only earns its keep when it runs. Our service engineers know exhaust-gas cleaning systems from commissioning to dry dock, and they work with the same data you see in this portal."
      points={[
        {
          title: 'Critical spares shipped within 24 hours',
          text: 'Pumps, nozzles, sensors and control cards that stop a scrubber are held in stock. Critical spares are shipped within 24 hours of your order, to the port your ship calls next.',
        },
        {
          title: 'Engineers who have seen it before',
          text: 'Our engineers have commissioned and serviced open-loop and hybrid systems on bulk carriers, tankers and container ships. They bring checklists from hundreds of port calls.',
        },
        {
          title: 'Service at your next port call',
          text: 'Planned visits are booked around your schedule: inspections, wash-water sensor calibration and CEMS checks are done while the ship is alongside, without delaying departure.',
        },
        {
          title: 'Findings you can act on',
          text: 'Every visit ends with a service report in the Documents section, with the equipment tag, the findings and the recommended actions, so nothing is lost between crews.',
        },
        {
          title: 'Compliance support',
          text: 'When an authority asks, we help you put together the evidence: SO2/CO2 ratio history, periods out of service and the corrective actions taken.',
        },
        {
          title: 'One contact for the whole fleet',
          text: 'A named service coordinator follows your fleet, knows its history and answers the phone around the clock.',
        },
      ]}
    >
      <Typography>
        Call the support number at the bottom of the page, or ask your coordinator to plan a visit. Existing
        service agreements cover most of the work above; the rest is offered at fixed prices before we start.
      </Typography>
    </ServiceArticle>
  );
}
